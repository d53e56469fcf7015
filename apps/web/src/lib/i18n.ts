import i18n from "i18next";
import resourcesToBackend from "i18next-resources-to-backend";
import { initReactI18next } from "react-i18next";
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from "@atende/shared";
import { STORAGE_KEYS } from "./storage";
import { WORKSPACE_FEATURES } from "./workspace-features";

type Tree = { [key: string]: string | Tree };

/**
 * Translations live beside their feature: `src/locales/{pt,en,es}.json` for the shell and errors,
 * `src/features/<name>/locales/{pt,en,es}.json` for each feature. All are merged into one namespace.
 * Only the languages in use are loaded, in pieces (see vite.config.ts): the public pages' texts (shell,
 * errors, login, sign-up, password reset) first; the workspace's (`WORKSPACE_FEATURES`: the ticket
 * workspace and what the shell shows) when the signed-in app loads (`loadAppTexts`); every other
 * feature's when a page that needs it opens (`loadFeatureTexts`, from the route table's `texts`). So
 * neither the login page nor the workspace carries the texts of every screen, nor the other languages.
 */
const publicLoaders = import.meta.glob<{ default: Tree }>(["../locales/*.json", "../features/auth/locales/*.json", "../features/password-reset/locales/*.json"]);
const appLoaders = import.meta.glob<{ default: Tree }>(["../features/*/locales/*.json", "!../features/auth/locales/*.json", "!../features/password-reset/locales/*.json"]);
/** Features whose texts are wanted so far (tests render features directly: all of them). */
const loadedFeatures = new Set<string>();
const everything = import.meta.env.MODE === "test";
const featureOf = (path: string) => /\/features\/([^/]+)\/locales\//.exec(path)?.[1] ?? "";
const wanted = (path: string) => everything || loadedFeatures.has(featureOf(path));

function merge(target: Tree, source: Tree): Tree {
  for (const [k, v] of Object.entries(source)) {
    const existing = target[k];
    target[k] = typeof v === "object" && typeof existing === "object" ? merge({ ...existing }, v) : v;
  }
  return target;
}

async function languageTree(lang: string): Promise<Tree> {
  const files = [...Object.entries(publicLoaders), ...Object.entries(appLoaders).filter(([path]) => wanted(path))].filter(([path]) => path.endsWith(`/${lang}.json`));
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

const featureTexts = new Map<string, Promise<void>>();

/**
 * Adds these features' texts for the languages in use (once per set: the same promise for the same
 * features, as React's `use` wants); a later language change loads every feature loaded so far.
 */
export function loadFeatureTexts(features: readonly string[]): Promise<void> {
  const key = [...features].sort().join(",");
  let loading = featureTexts.get(key);
  if (!loading) {
    loading = addFeatureTexts(features);
    featureTexts.set(key, loading);
  }
  return loading;
}

/** The workspace's texts (with the first signed-in page). */
export const loadAppTexts = () => loadFeatureTexts(WORKSPACE_FEATURES);

/** Each feature's texts load once; a page that asks while they load waits for that same load. */
const featureLoads = new Map<string, Promise<void>>();

function addFeatureTexts(features: readonly string[]): Promise<void> {
  if (everything) return Promise.resolve();
  return Promise.all(features.map(featureLoad)).then(() => undefined);
}

function featureLoad(feature: string): Promise<void> {
  let loading = featureLoads.get(feature);
  if (!loading) {
    loadedFeatures.add(feature);
    loading = addOneFeature(feature);
    featureLoads.set(feature, loading);
  }
  return loading;
}

async function addOneFeature(feature: string): Promise<void> {
  const languages = [...new Set([i18n.language, DEFAULT_LANGUAGE])].filter((l) => (LANGUAGES as readonly string[]).includes(l));
  await Promise.all(
    languages.map(async (lang) => {
      const files = Object.entries(appLoaders).filter(([path]) => path.endsWith(`/${lang}.json`) && featureOf(path) === feature);
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
