/**
 * Look-alike characters folded to the Latin letter or digit they imitate, for prompt moderation.
 *
 * Source: Unicode Technical Standard #39, confusables.txt (https://www.unicode.org/Public/security/latest/
 * confusables.txt, the "MA" table). Only the entries whose skeleton is one ASCII letter or digit are kept, and only
 * those that NFKD does not already fold: fullwidth forms, mathematical alphanumerics, circled and parenthesised
 * letters, ligatures and accented letters are handled by normalisation (normalize.ts) before this table is read.
 * Letters with a stroke or hook that have no decomposition (ø, ł, đ, ħ, ƶ …) are listed with their base letter, as
 * confusables.txt maps them to base + combining overlay, which moderation then drops.
 * The few entries marked "project" are not in confusables.txt but are common look-alikes in evasion (Greek ε, η).
 * Each string lists characters that fold to the key (upper and lower case are both given where they exist).
 */
export const CONFUSABLE_GROUPS: Readonly<Record<string, string>> = {
  a: 'ɑαаⱥꓮᴀꭤꬰ⍺ᗅᎪ',
  b: 'ƄƅЬᏏᖯвʙƀҍѣВΒᏴᗷꓐƁɓƃ',
  c: 'ϲсᴄⲥꮯϹСᏟꓚȼ¢ƈ',
  d: 'ԁᏧᑯꓒᎠᗞᗪꓓđɗɖƌ',
  e: 'еҽꬲЕΕᎬꓰɇ℮ε', // ε: project
  f: 'ꞙſẝքꬵϜᖴꓝƒ',
  g: 'ɡᶃƍցԌᏀᏳꓖǥɠ',
  h: 'һհᏂнНΗᎻᕼꓧħћɦ',
  i: 'ıɪɩιіꙇӏᎥ⍳˛ǀׅ׀ɨ',
  j: 'ϳјЈᎫᒍꓙɉʝ',
  k: 'ᴋĸκϰкКΚᏦᛕꓗƙқ',
  l: 'ꓲⵏᛁ∣Ɩłƚɫ',
  m: 'мМΜᎷᗰᛖꓟ',
  n: 'ոռпπᴨϖΝꓠɳƞη', // η: project
  o: 'οоօσⲟᴏᴑꬽОΟՕⲞꓳøɵөѳ',
  p: 'рρϱⲣ⍴РΡᏢᑭꓑƥ',
  q: 'ԛգզ',
  r: 'гᴦⲅꭇꭈᎡᏒᖇꓣɍ',
  s: 'ѕꜱƽЅՏᏚᏕꓢʂ',
  t: 'тτᴛТΤᎢꓔŧƭ',
  u: 'ʋυսᴜꞟꭎꭒцՍᑌꓴʉ',
  v: 'νѵטᴠ∨ѴᏙᐯꓦ',
  w: 'ѡԝաᴡԜᏔᎳꓪ',
  x: 'х×ХΧχᕁᕽꓫ', // χ: project
  y: 'уүγɣʏყУҮΥᎩᎽꓬɏұ',
  z: 'ᴢΖᏃꓜƶȥ',
  '3': 'ЗƷȜꝪ',
  '6': 'бᏮ',
  '4': 'Ꮞ',
  '8': 'ȣȢ',
  '9': 'Ꝯ',
};

/** Characters folded to more than one letter (confusables.txt maps them to a letter pair). */
export const CONFUSABLE_PAIRS: Readonly<Record<string, string>> = {
  æ: 'ae',
  Æ: 'ae',
  œ: 'oe',
  Œ: 'oe',
  ß: 'ss',
  ð: 'd',
  Ð: 'd',
};
