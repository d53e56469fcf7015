import i18n from "i18next";
import resourcesToBackend from "i18next-resources-to-backend";
import { initReactI18next } from "react-i18next";
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from "@atende/shared";
import { STORAGE_KEYS } from "./storage";

type Tree = { [key: string]: string | Tree };

/**
 * Translations live beside their feature: `src/locales/{pt,en,es}.json` for the shell and errors,
 * `src/features/<name>/locales/{pt,en,es}.json` for each feature. All are merged into one namespace.
 * Only the languages in use are loaded, in two chunks per language (see vite.config.ts): the public
 * pages' texts (shell, errors, login, sign-up, password reset) first, and the other features' texts
 * when the signed-in app loads (`loadAppTexts`), so the login page carries neither the texts of every
 * screen nor the other languages.
 */
const publicLoaders = import.meta.glob<{ default: Tree }>(["../locales/*.json", "../features/auth/locales/*.json", "../features/password-reset/locales/*.json"]);
const appLoaders = import.meta.glob<{ default: Tree }>(["../features/*/locales/*.json", "!../features/auth/locales/*.json", "!../features/password-reset/locales/*.json"]);
/** Whether the app's texts are wanted (tests render features directly: always). */
let withAppTexts = import.meta.env.MODE === "test";

function merge(target: Tree, source: Tree): Tree {
  for (const [k, v] of Object.entries(source)) {
    const existing = target[k];
    target[k] = typeof v === "object" && typeof existing === "object" ? merge({ ...existing }, v) : v;
  }
  return target;
}

async function languageTree(lang: string): Promise<Tree> {
  const loaders = withAppTexts ? { ...publicLoaders, ...appLoaders } : publicLoaders;
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

let appTexts: Promise<void> | null = null;

/** Adds the signed-in app's texts for the languages in use (once); later language changes load them too. */
export function loadAppTexts(): Promise<void> {
  appTexts ??= addAppTexts();
  return appTexts;
}

async function addAppTexts(): Promise<void> {
  if (withAppTexts) return;
  withAppTexts = true;
  const languages = [...new Set([i18n.language, DEFAULT_LANGUAGE])].filter((l) => (LANGUAGES as readonly string[]).includes(l));
  await Promise.all(
    languages.map(async (lang) => {
      const files = Object.entries(appLoaders).filter(([path]) => path.endsWith(`/${lang}.json`));
      const modules = await Promise.all(files.map(([, load]) => load()));
      i18n.addResourceBundle(lang, "translation", modules.reduce<Tree>((tree, mod) => merge(tree, mod.default), {}), true, true);
    }),
  );
}

export function setLanguage(lang: Language): void {
  localStorage.setItem(STORAGE_KEYS.language, lang);
  void i18n.changeLanguage(lang);
  document.documentElement.lang = lang === "pt" ? "pt-BR" : lang;
}

export default i18n;
