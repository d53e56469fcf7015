import { readdirSync } from "node:fs";
import path from "node:path";
import js from "@eslint/js";
import { createNodeResolver, importX } from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

const webSrc = path.join(import.meta.dirname, "apps/web/src");
// Read at lint time, so a new feature folder is covered without editing this file.
const webFeatures = readdirSync(path.join(webSrc, "features"), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * The web app's layers (docs/architecture.md, "Web app structure"): a feature imports only itself and
 * the shared layers (components/, hooks/, lib/); app/ and the entry compose features; the shared
 * layers import neither features nor app/.
 */
const webLayerZones = [
  ...webFeatures.map((feature) => ({
    target: path.join(webSrc, "features", feature),
    from: path.join(webSrc, "features"),
    except: [`./${feature}`],
    message: "A feature does not import another feature: move the shared part to lib/ or components/, or compose them in app/.",
  })),
  {
    target: path.join(webSrc, "features"),
    from: path.join(webSrc, "app"),
    message: "A feature does not import app/: app/ composes features, not the other way round.",
  },
  {
    target: ["components", "hooks", "lib"].map((layer) => path.join(webSrc, layer)),
    from: [path.join(webSrc, "features"), path.join(webSrc, "app")],
    message: "Shared layers (components/, hooks/, lib/) do not import features or app/.",
  },
];

/** No silent failures: a catch that drops the error hides what an operator needs. */
const silentCatches = [
  {
    selector: "CatchClause[param=null]:not(:has(ThrowStatement))",
    message: "This catch drops the error: log it with context (ids, request or job id) or answer with an error code.",
  },
  {
    selector: "CallExpression[callee.property.name='catch'] > ArrowFunctionExpression[params.length=0]",
    message: ".catch(() => ...) drops the error: take it and log it with context, or let it reach the caller.",
  },
];

const serverSrc = path.join(import.meta.dirname, "apps/server/src");

/**
 * The server's boundaries (docs/architecture.md, "Server boundaries"): core/ and db/ are the shared
 * layers every domain stands on, so they import no domain and no channel; the WhatsApp Web driver
 * (channels/baileys) and the built-in sandbox driver speak to the product only through the driver
 * interface and the inbound sink (channels/driver.ts, channels/sink.ts), never a domain; and a domain
 * never reaches into the WhatsApp Web driver (domains/index.ts, the composition root, registers it).
 */
const serverZones = [
  {
    target: [path.join(serverSrc, "core"), path.join(serverSrc, "db")],
    from: [path.join(serverSrc, "domains"), path.join(serverSrc, "channels")],
    message: "core/ and db/ are shared layers: they import no domain or channel (hand in what they need, as channels/sink.ts does).",
  },
  {
    target: [path.join(serverSrc, "channels/baileys"), path.join(serverSrc, "channels/sandbox-driver.ts")],
    from: path.join(serverSrc, "domains"),
    message: "A driver speaks to the product through the driver interface and the inbound sink (channels/driver.ts, channels/sink.ts), not a domain.",
  },
  {
    target: path.join(serverSrc, "domains"),
    from: path.join(serverSrc, "channels/baileys"),
    message: "A domain does not reach into the WhatsApp Web driver: ask the channel manager (channels/manager.ts) or the driver interface.",
  },
];

export default tseslint.config(
  { ignores: ["**/dist/**", "**/node_modules/**", "data/**", ".tmp/**", "test-results/**", "playwright-report/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-explicit-any": "error",
    },
  },
  {
    files: ["apps/web/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "warn" },
  },
  {
    files: ["apps/web/src/**/*.{ts,tsx}"],
    plugins: { "import-x": importX },
    // The rule only sees imports it can resolve: relative imports of .ts/.tsx files need these extensions.
    settings: { "import-x/resolver-next": [createNodeResolver({ extensions: [".ts", ".tsx", ".js", ".json"] })] },
    rules: { "import-x/no-restricted-paths": ["error", { zones: webLayerZones }] },
  },
  {
    files: ["apps/server/src/**/*.ts"],
    ignores: ["apps/server/src/domains/index.ts", "apps/server/src/**/*.test.ts"],
    plugins: { "import-x": importX },
    settings: { "import-x/resolver-next": [createNodeResolver({ extensions: [".ts", ".js", ".json"], extensionAlias: { ".js": [".ts", ".js"] } })] },
    rules: { "import-x/no-restricted-paths": ["error", { zones: serverZones }] },
  },
  {
    // No silent failures: a catch that drops the error hides what an operator needs.
    // Log it with context or answer with a code; a rightful ignore says why in an eslint-disable comment.
    files: ["**/*.{ts,tsx,js,mjs}"],
    rules: {
      "no-empty": ["error", { allowEmptyCatch: false }],
      "no-restricted-syntax": ["error", ...silentCatches],
    },
  },
  {
    files: ["**/*.test.{ts,tsx}", "e2e/**/*.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        ...silentCatches,
        {
          selector: "CallExpression[callee.name='expect'] > CallExpression[callee.property.name='every']",
          message: "expect(list.every(...)) passes on an empty list: use expectEvery (apps/server/test/expect-every.ts).",
        },
      ],
    },
  },
);
