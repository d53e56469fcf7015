export const E2E_ADMIN = { email: "super@e2e.test", password: "e2e-super-pass" };
