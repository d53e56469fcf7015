import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { compression } from "vite-plugin-compression2";
import { WORKSPACE_FEATURES } from "./src/lib/workspace-features";

const api = process.env.API_URL ?? "http://localhost:8080";

export default defineConfig({
  // brotli and gzip copies of every text asset, served precompressed by the server (app.ts)
  plugins: [react(), compression({ algorithms: ["brotliCompress", "gzip"], include: /\.(js|css|html|svg|json)$/, threshold: 1024 })],
  server: {
    port: 5173,
    proxy: {
      "/api": { target: api, changeOrigin: true },
      "/socket.io": { target: api, ws: true },
    },
  },
  build: {
    outDir: "dist",
    // the entry (React, router, MUI core, i18n, query) is ~500 kB before compression, ~160 kB gzip
    chunkSizeWarningLimit: 600,
    rollupOptions: {
      output: {
        // texts per language (lib/i18n.ts): the public pages' in one chunk, the workspace's in another,
        // every other feature's in its own (loaded with its pages)
        manualChunks(id) {
          const lang = /\/locales\/(\w+)\.json$/.exec(id)?.[1];
          if (!lang) return undefined;
          const feature = /\/features\/([^/]+)\/locales\//.exec(id)?.[1];
          if (!feature || feature === "auth" || feature === "password-reset") return `locale-${lang}`;
          return WORKSPACE_FEATURES.includes(feature) ? `locale-${lang}-app` : `locale-${lang}-${feature}`;
        },
      },
    },
  },
});
