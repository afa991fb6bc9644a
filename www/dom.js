// Small DOM helpers shared by the pages. Text always goes in as text, never as HTML, so
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

/** Adds the listeners in `handlers` (event type to function) to `target`; returns a function that removes them. */
export function listen(target, handlers) {
  const pairs = Object.entries(handlers);
  for (const [type, fn] of pairs) target.addEventListener(type, fn);
  return () => {
    for (const [type, fn] of pairs) target.removeEventListener(type, fn);
  };
}

/** Saves `blob` as a download called `name`. */
export function download(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = el('a', { href: url, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Fills a select with one option per value, labelled from `labels` where given. */
export function options(select, values, labels) {
  select.replaceChildren(...values.map((v) => el('option', { value: v, text: labels?.[v] ?? v })));
}

/** A page's header: Pathlab and `subtitle` as its title, then `controls`. */
export function titleHeader(subtitle, ...controls) {
  return el(
    'header',
    { class: 'pl-header pl-full' },
    el('h1', { class: 'pl-title' }, 'Pathlab', el('span', { class: 'pl-subtitle', text: subtitle })),
    ...controls,
  );
}

/** The panel of controls beside a page's stage: an aside holding `sections`. */
export function sidePanel(...sections) {
  return el('aside', { class: 'pl-panel pl-full' }, ...sections);
}

/** A section of a panel headed `title` (an h2), holding `children`. */
export function panelSection(title, ...children) {
  return el('section', { class: 'pl-section' }, el('h2', { text: title }), ...children);
}

/**
 * Makers for a page's buttons and read-outs; each element is also kept in `ui` under its id
 * (which is its data-testid). `readout` returns the labelled box to place.
 */
export function controls(ui) {
  return {
    button: (id, label, title, cls = '') =>
      (ui[id] = el('button', { type: 'button', testid: id, class: `pl-btn pl-${id} ${cls}`.trim(), title, text: label })),
    readout: (id, label, title) => {
      ui[id] = el('output', { testid: id, class: `pl-value pl-${id}` });
      return el('div', { class: 'pl-readout', title }, el('span', { class: 'pl-label', text: label }), ui[id]);
    },
  };
}

/**
 * The latest `max` messages of a page in a dismissable box (`data-testid="message"`, an
 * assertive live region). `box` goes into the page; messages are set as text, never HTML.
 */
export class MessageArea {
  constructor(max = 12) {
    this.max = max;
    this.messages = [];
    /** How many messages have been said in all, and when (by that count) each one shown was. */
    this.count = 0;
    /** @type {Map<string, number>} */
    this.said = new Map();
    this.list = el('div', { testid: 'message', class: 'pl-message', role: 'alert', 'aria-live': 'assertive' });
    this.box = el(
      'div',
      { class: 'pl-messages', hidden: true },
      this.list,
      el('button', {
        type: 'button',
        class: 'pl-dismiss',
        'aria-label': 'Dismiss messages',
        title: 'Dismiss',
        text: '×',
        onclick: () => this.clear(),
      }),
    );
  }

  /**
   * Adds a message (the oldest goes once there are more than `max`) and shows the box. A
   * message already on show is not repeated: it moves to the end. What one action says stays
   * together; the next action clears it (message-actions.js).
   */
  say(text) {
    this.messages = this.messages.filter((m) => m !== text);
    this.messages.push(text);
    if (this.messages.length > this.max) this.messages.shift();
    this.said.set(text, ++this.count);
    this.list.replaceChildren(...this.messages.map((m) => el('p', { text: m })));
    this.box.hidden = false;
  }

  /** Removes every message and hides the box. */
  clear() {
    if (!this.messages.length && this.box.hidden) return;
    this.messages = [];
    this.said.clear();
    this.list.replaceChildren();
    this.box.hidden = true;
  }

  /**
   * Removes the messages said when `count` messages had been said in all (a count read
   * earlier), keeping those said since.
   * @param {number} count
   */
  clearBefore(count) {
    const kept = this.messages.filter((m) => (this.said.get(m) ?? 0) > count);
    if (!kept.length) {
      this.clear();
      return;
    }
    if (kept.length === this.messages.length) return;
    this.messages = kept;
    this.list.replaceChildren(...this.messages.map((m) => el('p', { text: m })));
  }
}
