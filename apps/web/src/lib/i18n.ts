import i18n from "i18next";
import { initReactI18next } from "react-i18next";
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from "@atende/shared";
import { STORAGE_KEYS } from "./storage";

type Tree = { [key: string]: string | Tree };

/**
 * Translations live beside their feature: `src/locales/{pt,en,es}.json` for the shell and errors,
 * `src/features/<name>/locales/{pt,en,es}.json` for each feature. All are merged into one namespace.
 */
const modules = import.meta.glob<{ default: Tree }>(["../locales/*.json", "../features/*/locales/*.json"], { eager: true });

function merge(target: Tree, source: Tree): Tree {
  for (const [k, v] of Object.entries(source)) {
    const existing = target[k];
    target[k] = typeof v === "object" && typeof existing === "object" ? merge({ ...existing }, v) : v;
  }
  return target;
}

const resources: Record<string, { translation: Tree }> = {};
for (const [path, mod] of Object.entries(modules)) {
  const lang = path.match(/\/(\w+)\.json$/)?.[1];
  if (!lang || !(LANGUAGES as readonly string[]).includes(lang)) continue;
  resources[lang] ??= { translation: {} };
  merge(resources[lang].translation, mod.default);
}

export function storedLanguage(): Language {
  const saved = localStorage.getItem(STORAGE_KEYS.language);
  return (LANGUAGES as readonly string[]).includes(saved ?? "") ? (saved as Language) : DEFAULT_LANGUAGE;
}

void i18n.use(initReactI18next).init({
  resources,
  lng: storedLanguage(),
  fallbackLng: DEFAULT_LANGUAGE,
  interpolation: { escapeValue: false },
  returnNull: false,
});

export function setLanguage(lang: Language): void {
  localStorage.setItem(STORAGE_KEYS.language, lang);
  void i18n.changeLanguage(lang);
  document.documentElement.lang = lang === "pt" ? "pt-BR" : lang;
}

export default i18n;
