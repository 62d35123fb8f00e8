/** Where a reader's explicit theme choice is kept; absent means "follow the system". */
export const THEME_STORAGE_KEY = "theme";

/**
 * The one inline script, first in the head, run before anything is painted (the CSP allows it by
 * its hash, src/lib/manifest.ts, so change it only here). It marks that scripts run, so the controls
 * that need them (search, theme, copy) are laid out from the first paint rather than shifting the
 * page when the module scripts arrive; and it applies a remembered theme without a flash of the
 * other one (Starlight's ThemeProvider does the same). With no choice, or no JavaScript, the
 * stylesheet follows the system setting.
 */
export const HEAD_SCRIPT = `document.documentElement.dataset.js="";try{var t=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)});if(t==="light"||t==="dark")document.documentElement.dataset.theme=t}catch(e){}`;
