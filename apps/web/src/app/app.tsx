import { lazy, Suspense } from "react";
import { BrowserRouter, Navigate, Route, Routes } from "react-router-dom";
import { PAY_LINK_PATH } from "@atende/shared";
import { LoadingBar } from "../components/loading-bar";
import { AppTexts, FeatureTexts } from "./app-texts";
import { PublicOnly, RequireAuth } from "./guards";
import { PRIVATE_ROUTES } from "./routes";

// the shell (app bar, drawer, real-time) loads with the first private page, not with the login page
const AppLayout = lazy(() => import("./layout").then((m) => ({ default: m.AppLayout })));
const QueryProvider = lazy(() => import("./query-provider"));
// MUI's theme loads with every page but the login page, which is drawn without MUI (its weight)
const Mui = lazy(() => import("./theme"));
const LoginPage = lazy(() => import("../features/auth/login-page"));
const SignupPage = lazy(() => import("../features/auth/signup-page"));
const ForgotPasswordPage = lazy(() => import("../features/auth/forgot-password-page"));
// Pages anyone may open, signed in or not: a signed pay link's invoice (a company locked out by its due
// date pays there), and the built-in sandbox PSP's page that stands for the payer's bank app.
const PayLinkPage = lazy(() => import("../features/subscription/pay-link-page"));
const PixSandboxPage = lazy(() => import("../features/subscription/pix-sandbox-page"));

export function App() {
  return (
    <BrowserRouter>
      <Suspense fallback={<LoadingBar />}>
        <Routes>
          <Route path="/login" element={<PublicOnly><LoginPage /></PublicOnly>} />
          <Route path="/Login" element={<Navigate to="/login" replace />} />
          <Route path="/signup" element={<PublicOnly><Mui><QueryProvider><SignupPage /></QueryProvider></Mui></PublicOnly>} />
          <Route path={`${PAY_LINK_PATH}/:token`} element={<FeatureTexts features={["subscription"]}><Mui><QueryProvider><PayLinkPage /></QueryProvider></Mui></FeatureTexts>} />
          <Route path="/pix-sandbox/:txid" element={<FeatureTexts features={["subscription"]}><Mui><QueryProvider><PixSandboxPage /></QueryProvider></Mui></FeatureTexts>} />
          <Route path="/forgetpsw" element={<PublicOnly><Mui><ForgotPasswordPage /></Mui></PublicOnly>} />
          <Route element={<RequireAuth><AppTexts><Mui><QueryProvider><AppLayout /></QueryProvider></Mui></AppTexts></RequireAuth>}>
            {PRIVATE_ROUTES.filter((r) => !r.bare).map(({ path, page: Page, texts }) => (
              <Route key={path} path={path} element={<FeatureTexts features={texts}><Page /></FeatureTexts>} />
            ))}
          </Route>
          {PRIVATE_ROUTES.filter((r) => r.bare).map(({ path, page: Page, texts }) => (
            <Route key={path} path={path} element={<RequireAuth><AppTexts><FeatureTexts features={texts}><Mui><QueryProvider><Page /></QueryProvider></Mui></FeatureTexts></AppTexts></RequireAuth>} />
          ))}
          <Route path="*" element={<Navigate to="/tickets" replace />} />
        </Routes>
      </Suspense>
    </BrowserRouter>
  );
}
