import { lazy, Suspense } from "react";
import { BrowserRouter, Navigate, Route, Routes } from "react-router-dom";
import { LinearProgress } from "@mui/material";
import { PublicOnly, RequireAuth } from "./guards";
import { PRIVATE_ROUTES } from "./routes";

// the shell (app bar, drawer, real-time) loads with the first private page, not with the login page
const AppLayout = lazy(() => import("./layout").then((m) => ({ default: m.AppLayout })));
const LoginPage = lazy(() => import("../features/auth/login-page"));
const SignupPage = lazy(() => import("../features/auth/signup-page"));
const ForgotPasswordPage = lazy(() => import("../features/auth/forgot-password-page"));

export function App() {
  return (
    <BrowserRouter>
      <Suspense fallback={<LinearProgress />}>
        <Routes>
          <Route path="/login" element={<PublicOnly><LoginPage /></PublicOnly>} />
          <Route path="/Login" element={<Navigate to="/login" replace />} />
          <Route path="/signup" element={<PublicOnly><SignupPage /></PublicOnly>} />
          <Route path="/forgetpsw" element={<PublicOnly><ForgotPasswordPage /></PublicOnly>} />
          <Route element={<RequireAuth><AppLayout /></RequireAuth>}>
            {PRIVATE_ROUTES.filter((r) => !r.bare).map(({ path, page: Page }) => (
              <Route key={path} path={path} element={<Page />} />
            ))}
          </Route>
          {PRIVATE_ROUTES.filter((r) => r.bare).map(({ path, page: Page }) => (
            <Route key={path} path={path} element={<RequireAuth><Page /></RequireAuth>} />
          ))}
          <Route path="*" element={<Navigate to="/tickets" replace />} />
        </Routes>
      </Suspense>
    </BrowserRouter>
  );
}
