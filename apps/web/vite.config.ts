import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { compression } from "vite-plugin-compression2";

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
        // every feature's texts of one language in one chunk, loaded for the language in use (lib/i18n.ts)
        manualChunks(id) {
          const lang = /\/locales\/(\w+)\.json$/.exec(id)?.[1];
          if (!lang) return undefined;
          return /\/features\/(?!auth\/|password-reset\/)/.test(id) ? `locale-${lang}-app` : `locale-${lang}`;
        },
      },
    },
  },
});
