import i18n from "i18next";
import resourcesToBackend from "i18next-resources-to-backend";
import { initReactI18next } from "react-i18next";
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from "@atende/shared";
import { STORAGE_KEYS } from "./storage";

type Tree = { [key: string]: string | Tree };

/**
 * Translations live beside their feature: `src/locales/{pt,en,es}.json` for the shell and errors,
 * `src/features/<name>/locales/{pt,en,es}.json` for each feature. All are merged into one namespace.
 * Only the languages in use are loaded (one chunk per language, see vite.config.ts): the login page
 * does not carry the texts of every screen in three languages.
 */
const loaders = import.meta.glob<{ default: Tree }>(["../locales/*.json", "../features/*/locales/*.json"]);

function merge(target: Tree, source: Tree): Tree {
  for (const [k, v] of Object.entries(source)) {
    const existing = target[k];
    target[k] = typeof v === "object" && typeof existing === "object" ? merge({ ...existing }, v) : v;
  }
  return target;
}

async function languageTree(lang: string): Promise<Tree> {
  const files = Object.entries(loaders).filter(([path]) => path.endsWith(`/${lang}.json`));
  const modules = await Promise.all(files.map(([, load]) => load()));
  return modules.reduce<Tree>((tree, mod) => merge(tree, mod.default), {});
}

export function storedLanguage(): Language {
  const saved = localStorage.getItem(STORAGE_KEYS.language);
  return (LANGUAGES as readonly string[]).includes(saved ?? "") ? (saved as Language) : DEFAULT_LANGUAGE;
}

/** Resolves once the interface language (and the fallback) is loaded: the app renders after it. */
export const i18nReady = i18n
  .use(resourcesToBackend((lang: string) => ((LANGUAGES as readonly string[]).includes(lang) ? languageTree(lang) : Promise.resolve({}))))
  .use(initReactI18next)
  .init({
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
