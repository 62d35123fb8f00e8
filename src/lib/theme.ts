/** Where a reader's explicit theme choice is kept; absent means "follow the system". */
export const THEME_STORAGE_KEY = "theme";

/**
 * Runs in the document head before anything is painted, so a page opens in the reader's chosen
 * theme without a flash of the other one (Starlight's ThemeProvider does the same). It only marks
 * an explicit choice; with no choice, or no JavaScript, the stylesheet follows the system setting.
 * The CSP allows it by its hash (src/lib/manifest.ts), so change it only here.
 */
export const THEME_BOOT_SCRIPT = `try{var t=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)});if(t==="light"||t==="dark")document.documentElement.dataset.theme=t}catch(e){}`;
