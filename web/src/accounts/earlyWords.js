// The words the rendered sign-in page carries for its early sending (accounts/early.js), put there
// by the build (web/prerender) in the page's language: the app's translations arrive with it.

/** The sending label, the spinner's, and every code a server answer carries. */
export const needsWord = (key) => /^(error|validations)-/.test(key) || ['login-sending', 'spinner-label'].includes(key);

/** The id of the JSON object of them in the page. */
export const WORDS_ID = 'early-words';
