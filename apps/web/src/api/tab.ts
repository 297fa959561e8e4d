/**
 * This browser tab's id, sent with every request (X-Koma-Tab). The server names it in the "saved" events it
 * streams, so a tab recognises its own saves and other tabs know a save came from elsewhere.
 */
export const TAB_ID: string = crypto.randomUUID();
