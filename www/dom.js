// Small DOM helpers shared by the two pages. Text always goes in as text, never as HTML, so
// configuration values from a URL can be shown safely.

/** Makes an element. Strings among `children` become text nodes, never HTML. */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === 'text') node.textContent = value;
    else if (key === 'class') node.className = value;
    else if (key === 'testid') node.dataset.testid = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

/** Fills a select with one option per value, labelled from `labels` where given. */
export function options(select, values, labels) {
  select.replaceChildren(...values.map((v) => el('option', { value: v, text: labels?.[v] ?? v })));
}
