// The contract between the path-finding page (pathlab.js's App, and for the modules it shares
// with them the graph and hex views' SpaceApp in space-view.js) and the modules attached to it:
// timeline.js, panels.js, editor.js, edit.js, files.js, persist.js, warnings.js, compare.js,
// compare-view.js, embed.js, access.js and links.js.
//
// A module receives the page as a `PageContext` and declares, with a `Pick<PageContext, ...>`
// typedef of its own at its top, the part it uses; the type check (`tsc --noEmit -p
// jsconfig.json`) refuses any other member it reaches for, and checks that the page provides
// every member the module asks for. Adding a member here is adding to the contract: document it.
// This file holds types only; no page loads it.

/**
 * What the page gives the modules attached to it: the search and the map, the page's elements
 * and drawing, what the page does for the modules, and the other attached modules that work
 * together.
 * @typedef {object} PageContext
 * @property {any} lab The page's search: a pathlab_wasm `Lab` on the grid (a `SpaceLab` on
 *   graphs and hexes). Read its state; change it only through the page's calls below (or
 *   follow a change with `touch()` and, for the map or the ends, `mapChanged`).
 * @property {(algo: string) => boolean} holds True when `lab`, in the wasm module it is in now,
 *   runs `algo` (the grid page's first module runs only some searches).
 * @property {() => Promise<void>} useEverySearch Moves `lab` into the module with every search
 *   (loading it once) with its map, settings and step; `lab` and `memory` change then, so read
 *   them again after it resolves.
 * @property {WebAssembly.Memory} memory The wasm module's memory, for zero-copy views at the
 *   `lab`'s pointers (build them again after any call that may allocate).
 * @property {any} settings The `lab`'s settings as of the last `syncSettings()` (algo,
 *   heuristic, weight, uses_heuristic, incremental, has_agent, ...); undefined before the first.
 * @property {string | null} mapName The preset the map came from, or null for a file or an
 *   edited or generated map.
 * @property {string} mapTitle The map's title as the page shows it.
 * @property {import('./config.js').PageConfig} config The page's checked configuration (the
 *   URL's keys); modules read `embed`, `lock`, `contrast`, `speed`, `compare`, and write `speed`.
 * @property {Record<string, Set<string> | string[]>} known The names the core accepts for each
 *   named setting (algo, heuristic, diagonal, costs, hand), for readConfig.
 * @property {HTMLElement} root The element the page is built in: modules add their parts under
 *   it and listen there for `pathlab-change` and `pathlab-edit`.
 * @property {any} ui The page's elements by name (its data-testid, or `editSection`, `note`,
 *   `wrap`, ...), for the modules that place their controls beside them.
 * @property {HTMLCanvasElement} canvas The grid's canvas (data-testid="grid").
 * @property {import('./paint.js').Painter} painter Draws the grid on `canvas`; maps between
 *   cells and canvas pixels.
 * @property {Array<{ under?: (painter: import('./paint.js').Painter) => void, over?: (painter: import('./paint.js').Painter) => void }>} layers
 *   What modules draw under and over the grid's marks each repaint (links.js adds its layer).
 * @property {{ x: number, y: number } | null} hover The cell under the pointer, or null.
 * @property {string} lastSize The layout's last size key; set it to '' so that the next
 *   `layout()` fits the canvas again even at the same size.
 * @property {boolean} playing True while the search plays.
 * @property {() => void} touch Asks for a repaint (and fresh read-outs) at the next frame.
 * @property {() => void} changed Announces that the settings changed (`pathlab-change`: the
 *   URL follows).
 * @property {(what: string) => void} mapChanged Announces a change of the map or its ends
 *   (`pathlab-edit` with `what`: paint, erase, start, goal, clear, load, ...).
 * @property {(what: string) => void} edited The map or an end was edited (`what` as in
 *   `mapChanged`): announces it, narrates it and repaints.
 * @property {(text: string) => void} say Shows a message in the page's message area.
 * @property {(text: string) => void} refused Shows why an edit was refused.
 * @property {string[]} messages The messages on show, oldest first.
 * @property {(text: string) => void} narrate Sets the narration ("Last step") text.
 * @property {() => void} narrateStep Narrates the search's last step.
 * @property {() => void} syncSettings Reads the `lab`'s settings back into the controls and
 *   `settings`.
 * @property {() => void} layout Fits the canvas to its box (after the map's size changed).
 * @property {(title: string, what: string) => void} showNewMap After the `lab`'s map was
 *   replaced (generated, resized, restored, an example): the page's upkeep as after loading a
 *   file (pause, reset, name it the user's own `title`, refit, repaint, `mapChanged(what)`).
 * @property {(title: string) => void} nameOwnMap Names the shown map the user's own (no
 *   preset), `title` in the map list and the title.
 * @property {(file?: File) => Promise<void>} openFile Opens a map file (as the Open file… button).
 * @property {() => void} showSpeed Shows `config.speed` on the speed control.
 * @property {(on: boolean) => void} setPlaying Plays or pauses the search.
 * @property {() => void} togglePlay Plays, or pauses (from the start again when finished).
 * @property {() => void} step Takes one step of the search, paused.
 * @property {(fn: () => void, what: string) => void} act Pauses, runs `fn` on the search
 *   (`what`: back, reset, run, seek) and narrates and repaints.
 * @property {(cell: { x: number, y: number } | null) => void} setHover Sets the cell under the
 *   pointer (null: none).
 * @property {() => number | null} brush The cell value the chosen brush paints, or null for
 *   the Inspect tool (presses read cells and edit nothing).
 * @property {(cell: { x: number, y: number } | null) => void} select Selects the cell the Cell
 *   panel reads while the pointer is not over the grid (a tap, a click with the Inspect tool).
 * @property {{ blind(): boolean, config(): object } | undefined} links The teleports and
 *   slopes (links.js), once attached: `blind()` is true when the search cannot see them,
 *   `config()` gives their URL keys.
 * @property {{ mode: string | null } | null} quiz The predict-the-next-step quiz (quiz.js)
 *   once started: `mode` is the question asked (`quiz=`), null when it was ended.
 * @property {{ config(): Record<string, any> } | null | undefined} switches The search's
 *   switches (switches.js), once attached: `config()` gives those away from the core's
 *   defaults by their URL keys (re-opening, the threshold rule, the order, the skeleton's
 *   plug-ins, the heuristic check), for the address, the saved settings and share links.
 */

export {};
