// The pages' words in the page's language. Every sentence a page or an editor writes goes through one of these
// functions, whose names Babel's extractor looks for (tools/messages.py; service/api/referee.py, MAKERS), so that it
// is an entry of a `pages` catalogue, its English text the entry's id:
//   t("Score the table")                         a sentence
//   t("Step {number} of {count}", {number, count}) with {parameters} (numbers said the language's way)
//   tn("{count} step", "{count} steps", count)   a count: the form the language's plural rules choose
//   tp("button", "Score")                        a sentence in a context (the same English, said otherwise)
//   N_("Complete towers")                        only marks a text, said later with t(text) (a table of labels)
// A catalogue comes as JSON: {lang, plurals, messages}: `plurals` are the language's CLDR plural categories in the
// order of its gettext plural forms (zero, one, two, few, many, other among its own); a plural entry's translation
// is its forms in that order, and the browser's Intl.PluralRules names the category of a count. An entry missing
// from the catalogue is said in English. The page's own catalogue is a JSON data block of the page
// (#page-words: no inline script); an editor's is fetched beside it (referee/<game>/messages.json?lang=…).

const CONTEXT = "\u0004"; // gettext's separator of an entry's context and its id
const PARAMETER = /\{([a-z_]+)\}/g;

export const N_ = (text) => text;

// {t, tn, tp, parts, list, number, lang} for a catalogue
export function translator(catalogue) {
  const lang = (catalogue && catalogue.lang) || "en";
  const messages = (catalogue && catalogue.messages) || {};
  const plurals = (catalogue && catalogue.plurals) || ["one", "other"];
  const rules = new Intl.PluralRules(lang);
  const english = new Intl.PluralRules("en");
  const numbers = new Intl.NumberFormat(lang === "en" ? "en-GB" : lang, {maximumFractionDigits: 2});
  const lists = {}; // type -> Intl.ListFormat

  const number = (value) => numbers.format(value);

  function fill(template, parameters) {
    if (!parameters) return template;
    return template.replace(PARAMETER, (whole, name) => {
      if (!(name in parameters)) return whole;
      const value = parameters[name];
      return typeof value === "number" ? number(value) : String(value);
    });
  }

  function t(text, parameters) {
    const said = messages[text];
    return fill(typeof said === "string" ? said : text, parameters);
  }

  function tp(context, text, parameters) {
    const said = messages[context + CONTEXT + text];
    return fill(typeof said === "string" ? said : text, parameters);
  }

  function tn(singular, plural, count, parameters) {
    const forms = messages[singular];
    let template;
    if (Array.isArray(forms) && forms.length) {
      let index = plurals.indexOf(rules.select(count));
      if (index < 0 || index >= forms.length) index = forms.length - 1; // "other", the last form
      template = forms[index];
    } else {
      template = english.select(count) === "one" ? singular : plural;
    }
    return fill(template, {count, ...(parameters || {})});
  }

  // a sentence said with t() whose parameters are nodes: the pieces to put in an element, in order
  // (parts(t("{code} a plain tower"), {code: el("code", …)}))
  function parts(text, parameters) {
    const pieces = [];
    let at = 0;
    for (const match of text.matchAll(PARAMETER)) {
      if (!(match[1] in parameters)) continue;
      if (match.index > at) pieces.push(text.slice(at, match.index));
      const value = parameters[match[1]];
      pieces.push(typeof value === "number" ? number(value) : value);
      at = match.index + match[0].length;
    }
    if (at < text.length) pieces.push(text.slice(at));
    return pieces;
  }

  // items as the language lists them: "Ada, Bea and Cy" ("conjunction"), "Ada, Bea or Cy" ("disjunction")
  function list(items, type) {
    const kind = type || "conjunction";
    if (!lists[kind]) lists[kind] = new Intl.ListFormat(lang === "en" ? "en-GB" : lang, {type: kind});
    return lists[kind].format(items.map(String));
  }

  return {t, tn, tp, parts, list, number, lang};
}

// The page's own catalogue, from its JSON data block; and whether its address names the language (`?lang=`), so
// that the links it makes name it too
function pageCatalogue() {
  const block = document.getElementById("page-words");
  try { return JSON.parse(block.textContent); } catch (e) { return {lang: document.documentElement.lang || "en"}; }
}

const catalogue = pageCatalogue();
export const words = translator(catalogue);
export const lang = words.lang;
export const explicit = !!catalogue.explicit;

// the headers of a call to the API, in the page's language (its violations, problems and events come back in it)
export function spoken(headers) {
  return {...(headers || {}), "Accept-Language": lang};
}

// an address of this service that keeps the page's `?lang=` when the page's own address has it
export function keepingLanguage(url) {
  if (!explicit) return url;
  const [path, fragment] = url.split("#");
  return path + (path.includes("?") ? "&" : "?") + "lang=" + encodeURIComponent(lang) +
    (fragment === undefined ? "" : "#" + fragment);
}

// The language picker's links keep where the page is (its fragment: the table, the record and the step)
export function pickerFollows() {
  for (const link of document.querySelectorAll("nav.languages a[hreflang]")) {
    link.setAttribute("href", "?lang=" + link.getAttribute("hreflang") + location.hash);
  }
}

// An editor's catalogue (its folder's messages.json, in the page's language); English when it cannot be had
export async function editorWords(editorUrl) {
  try {
    const response = await fetch(new URL("messages.json?lang=" + encodeURIComponent(lang), editorUrl),
                                 {headers: {"Accept": "application/json"}});
    if (response.ok) return translator(await response.json());
  } catch (e) { /* English */ }
  return translator({lang, plurals: ["one", "other"], messages: {}});
}
