// satsweeper serve: the page.  Plain JavaScript, no build step, nothing
// fetched from elsewhere.  Every answer comes from the JSON API (/api/...),
// which returns the objects `satsweeper COMMAND --json` prints.
"use strict";

// ------------------------------------------------------------------ API

// document.body.dataset.pending counts requests under way (tests wait for 0).
// "working…" shows in a corner while one takes longer than a moment (a
// hard board can take up to the server's time limit), never for a quick one.
let pending = 0;
let workingSoon = null;

function busy(change) {
  pending += change;
  document.body.dataset.pending = pending;
  const working = document.getElementById("working");
  if (pending > 0 && workingSoon === null) {
    workingSoon = setTimeout(() => { working.hidden = false; }, 300);
  } else if (pending === 0) {
    clearTimeout(workingSoon);
    workingSoon = null;
    working.hidden = true;
  }
}

// signal: an AbortSignal that cancels the request (the server then stops its query).
async function api(command, body, signal) {
  busy(+1);
  let response, answer;
  try {
    try {
      response = await fetch("/api/" + command, body === undefined ? {signal} : {
        method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body), signal});
    } catch (err) {  // no connection: the browser's words ("Failed to fetch") say nothing useful
      if (err.name === "AbortError") throw err;
      throw new Error("no answer from the server: is satsweeper serve still running?");
    }
    answer = await response.json();
  } finally {
    setTimeout(() => busy(-1), 0);  // after the caller has drawn the answer
  }
  if (!response.ok || answer.error) {
    // A busy server (503) answers in the out-of-time shape: its "stopped" says so.
    const err = new Error(answer.error || answer.stopped || ("HTTP " + response.status));
    err.answer = answer;
    throw err;
  }
  return answer;
}

const $ = (id) => document.getElementById(id);
const key = (row, col) => row + "," + col;

// ------------------------------------------------------------------ boards

// The board answers carry one string per row: 0-8 a number, . hidden, F a flag, - void.
// Cells as large as the room allows (up to 40 px, where a percentage is 14 px
// tall); below the board's smallest size (18 px, large enough to click; 28 px
// on a phone, large enough for a finger and for the percentages) it scrolls
// instead; below 24 px the percentages give way to the colours, and below 12 px
// (a large gadget seen whole) the numbers to the cells' shapes.
const BIGGEST = 40;
const TAPPED = window.matchMedia("(max-width: 760px), (pointer: coarse)");  // style.css's phone width

// Pixels across for the cells: the board's box less its padding and frame.
function room(host) {
  return Math.max(200, (host.parentElement.clientWidth || 600) - 24);
}

// A gadget is shown to a class whole, and so are the analysed and played boards
// (data-whole): their cells also fit the box's height (75% of the window), down to
// the smallest size, else the lower rows sat below the fold and a vertical scroll bar
// took the width the last column needed (Kaye's AND at 1280x900, expert at 1366x768
// scrolled both ways).
function roomDown(host) {
  return Math.max(100, Math.floor(window.innerHeight * 0.75) - 24);
}

function fit(host) {
  const width = +host.dataset.width;
  if (!width) return;
  const smallest = +(host.dataset.smallest || (TAPPED.matches ? 28 : 18));
  let exact = room(host) / width;
  if (host.dataset.whole && +host.dataset.height) exact = Math.min(exact, roomDown(host) / +host.dataset.height);
  const across = Math.floor(exact);
  let size = Math.max(smallest, Math.min(BIGGEST, across));
  // A map (a large gadget seen whole) fits to a fraction of a pixel: in whole pixels the
  // widest gadget (188 squares at 2 px) overflowed a phone's box by 40 px, a port out of sight.
  if (smallest < 12 && across < 12) size = Math.max(1, Math.floor(exact * 100) / 100);
  host.style.setProperty("--cell", size + "px");
  host.classList.toggle("small-cells", size < 24);
  host.classList.toggle("tiny-cells", size < 12);
  return size;
}

window.addEventListener("resize", () => document.querySelectorAll(".board").forEach((host) => { fit(host); sight(host); }));

window.addEventListener("scroll", () => document.querySelectorAll(".board.far-board").forEach(sight), {passive: true});

const DRAWN = 40000;  // cells drawn at most: a page of a million squares would hang the browser

// A large board (more than FAR cells) is laid out and painted only where it is
// in sight: each row is cut into runs of RUN cells, and the runs out of sight are
// skipped by the browser (class "far": content-visibility: hidden) though their
// cells stay in the page for the answers to mark.  Style, layout and paint of
// 40,000 cells took over a second in Chromium however simple the cells, and
// content-visibility: auto renders about half of such a board (its margin is half
// the window, and it ignores the board's own scroll box).
const FAR = 2500, RUN = 20;

// The board drawn as one HTML string, a row to a <div> (40,000 cells built one
// element at a time, then laid out as one CSS grid, took 3 s in Chromium), with
// the probabilities (probs: an answer's "probs", or nothing) drawn in the same pass.
// Returns the cells by key(row, col).
function drawBoard(host, board, onCell, probs) {
  // A board drawn again at its size (a move, the probabilities ticked) stays where it was
  // scrolled: emptied, its box scrolled back to the left edge, and the hint out of sight.
  const wrap = host.parentElement;
  const again = host.dataset.width === String(board.width) && host.dataset.height === String(board.height);
  const view = again ? [wrap.scrollLeft, wrap.scrollTop, window.scrollX, window.scrollY] : null;
  host.classList.remove("far-board");
  host.innerHTML = "";
  if (board.width * board.height > DRAWN) {
    host.dataset.width = "";
    host.textContent = `a ${board.width}×${board.height} board: too large to draw here ` +
      `(over ${DRAWN.toLocaleString()} squares); the answers below are for all of it`;
    return new Map();
  }
  host.dataset.width = board.width;
  host.dataset.height = board.height;
  fit(host);  // before the cells are in: measuring the room then lays out no cell
  const odds = new Map();
  for (const c of (probs && probs.consistent && probs.cells) || []) odds.set(key(c.row, c.col), c);
  const html = [];
  const far = board.width * board.height > FAR;
  const last = board.width % RUN;  // the last run of a row is shorter: its size when skipped
  const run = far ? '<div class="run far">' : '<div class="run">';
  const short = far && last ? `<div class="run far" style="--run: ${last}">` : run;
  for (let r = 0; r < board.height; r++) {
    html.push('<div class="cells">');
    for (let c = 0; c < board.width; c++) {
      if (c % RUN === 0) html.push(c ? "</div>" : "", c + RUN > board.width ? short : run);
      html.push(cellHtml(r, c, board.rows[r][c], odds.get(key(r, c))));
    }
    html.push("</div></div>");
  }
  host.innerHTML = html.join("");
  if (view) {
    [wrap.scrollLeft, wrap.scrollTop] = view;
    window.scrollTo(view[2], view[3]);
  }
  const cells = new Map();
  for (let r = 0; r < board.height; r++) {
    const row = host.children[r];
    for (let k = 0; k < row.children.length; k++) {
      const runCells = row.children[k].children;
      for (let i = 0; i < runCells.length; i++) cells.set(key(r, k * RUN + i), runCells[i]);
    }
  }
  host.shown = new Set();
  if (far) {
    host.classList.add("far-board");
    host.parentElement.onscroll = () => sight(host);
    sight(host);
  }
  if (onCell) {
    host.onclick = (e) => {
      const d = e.target.closest(".cell");
      if (!d) return;
      host.dataset.cursorRow = d.dataset.row;  // the keyboard goes on from the cell clicked
      host.dataset.cursorCol = d.dataset.col;
      onCell(+d.dataset.row, +d.dataset.col, e);
    };
    host.oncontextmenu = (e) => {
      const d = e.target.closest(".cell");
      if (d) { e.preventDefault(); onCell(+d.dataset.row, +d.dataset.col, e, true); }
    };
    keyboard(host, board, cells, onCell);
  }
  return cells;
}

// The runs of a large board that are in sight (its scroll box's and the window's),
// and a margin of a few rows and a run, drawn; those that left it skipped again.
// Called on every scroll: scroll events come before the frame is painted, so a
// run scrolled into sight is drawn in the same frame.
function sight(host) {
  if (!host.classList.contains("far-board")) return;
  const size = parseFloat(host.style.getPropertyValue("--cell"));
  const board = host.getBoundingClientRect(), box = host.parentElement.getBoundingClientRect();
  const top = Math.max(box.top, 0), bottom = Math.min(box.bottom, window.innerHeight);
  const left = Math.max(box.left, 0), right = Math.min(box.right, window.innerWidth);
  const wanted = new Set();
  if (bottom > top && right > left) {  // else out of sight (or a mode not shown): nothing drawn
    const rows = host.children, margin = 6;
    const r0 = Math.max(0, Math.floor((top - board.top) / size) - margin);
    const r1 = Math.min(rows.length - 1, Math.floor((bottom - board.top) / size) + margin);
    const k1 = Math.floor((right - board.left) / size / RUN) + 1;
    for (let r = r0; r <= r1; r++) {
      const runs = rows[r].children;
      for (let k = Math.max(0, Math.floor((left - board.left) / size / RUN) - 1); k <= Math.min(runs.length - 1, k1); k++) {
        wanted.add(runs[k]);
      }
    }
  }
  for (const run of host.shown) if (!wanted.has(run)) run.classList.add("far");
  for (const run of wanted) run.classList.remove("far");
  host.shown = wanted;
}

// A cell of a large board made drawable before it is measured or scrolled to.
function near(div) {
  const run = div.parentElement, host = div.closest(".board");
  if (run.classList.contains("far")) {
    run.classList.remove("far");
    host.shown.add(run);
  }
}

// One cell ("ch" as the answers write it) as HTML; "odds" its probability, if any:
// the colour, the percentage, the exact fraction in the title, safe or mine ringed.
function cellHtml(r, c, ch, odds) {
  let cls = "cell", inside = "", title = `${r},${c}`, more = "";  // the title: the coordinates the answers use
  if (ch === ".") cls += " hidden";
  else if (ch === "F") cls += " hidden flag";
  else if (ch === "-") cls += " void";
  else {
    cls += " open n" + ch;
    if (ch !== "0") inside = ch;
  }
  if (odds) {
    const p = odds.p, shown = percent(p);
    if (p === 0) cls += " safe";
    if (p === 1) cls += " certain-mine";
    title += `: mine probability ${odds.probability} (${(p * 100).toFixed(2)}%)`;
    cls += " q" + Math.round(p * SHADES);
    more = ` data-probability="${odds.probability}"`;
    // "100", ">99": smaller, to fit inside the ring
    // With its "%" (small, to fit): a bare "0" in a safe cell's ring read as a revealed 0.
    inside += `<span class="pct${shown.length > 2 ? " long" : ""}">${shown.replace("<", "&lt;").replace(">", "&gt;")}` +
      `<small>%</small></span>`;
  }
  return `<div class="${cls}" data-row="${r}" data-col="${c}" data-state="${ch}" title="${title}"${more}>${inside}</div>`;
}

// The keyboard: the board takes the focus (Tab); the arrow keys move a
// cursor, Enter or Space clicks the cell under it and F right-clicks it
// (flags).  The cursor stays put when the board is drawn again.
// What the keys do on each board, said to a screen reader (Analyse has no flagging:
// F is a right click there, which asks, or with a drawing tool draws a hidden cell).
const KEYS = {"analyse-board": "arrow keys move, Enter asks whether the cell is safe, or draws with a drawing tool",
              "play-board": "arrow keys move, Enter opens, F flags, H hints, U undoes the last move",
              "gadget-board": "arrow keys move; the inputs are set by the check boxes"};

function keyboard(host, board, cells, onCell) {
  host.tabIndex = 0;
  const row = Math.min(+(host.dataset.cursorRow || 0), board.height - 1);
  const col = Math.min(+(host.dataset.cursorCol || 0), board.width - 1);
  const put = (r, c) => {
    // not only the cell under the cursor before: a click moves the cursor without drawing it
    for (const old of host.querySelectorAll(".cell.cursor")) old.classList.remove("cursor");
    host.dataset.cursorRow = r;
    host.dataset.cursorCol = c;
    const div = cells.get(key(r, c));
    div.classList.add("cursor");
    label(r, c);
    if (document.activeElement === host) { near(div); div.scrollIntoView({block: "nearest", inline: "nearest"}); }
  };
  const label = (r, c) => host.setAttribute("aria-label", `board ${board.width}×${board.height}; ` +
    `cell ${r},${c}: ${describe(cells.get(key(r, c)))}; ${KEYS[host.id] || KEYS["play-board"]}`);
  // Said again when marks change what the cell under the cursor is (mark, showMines): the
  // label was made as the board was drawn, and the mine that exploded was still "hidden".
  host.relabel = () => label(+host.dataset.cursorRow, +host.dataset.cursorCol);
  put(row, col);
  host.onkeydown = (e) => {
    const r = +host.dataset.cursorRow, c = +host.dataset.cursorCol;
    const moves = {ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1]};
    if (moves[e.key]) {
      e.preventDefault();
      const [dr, dc] = moves[e.key];
      put(Math.max(0, Math.min(board.height - 1, r + dr)), Math.max(0, Math.min(board.width - 1, c + dc)));
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      onCell(r, c, e);
    } else if (e.key === "f" || e.key === "F") {
      e.preventDefault();
      onCell(r, c, e, true);
    } else if ((e.key === "u" || e.key === "U") && host.id === "play-board") {
      e.preventDefault();
      undo();
    } else if ((e.key === "h" || e.key === "H") && host.id === "play-board") {
      e.preventDefault();  // the hint without leaving the board (it was five Tabs away and back)
      $("hint-button").click();
    }
  };
}

function describe(div) {
  // A gadget's port: its name and side first (a keyboard could not reach the gadget's board).
  const port = div.querySelector(".port");
  const side = port ? `port ${port.textContent}, ${port.classList.contains("out") ? "an output" : "an input"}; ` : "";
  const name = div.querySelector(".name");  // a named cell: its name first, as drawn
  return side + (name ? `named ${name.textContent}; ` : "") + what(div);
}

function what(div) {
  const s = div.dataset.state;
  // What the colours and percentages say, said too: a screen reader heard only "hidden".
  const p = div.dataset.probability;
  const has = (name) => div.classList.contains(name);
  if (s === "." && p !== undefined) {
    // An explanation's mine (a purple dot) said beside its chance: Analyse has chances on
    // every hidden cell, and the dots of "is not safe" were never said.
    const drawn = has("explained") ? "; a mine in the explanation drawn" : "";
    return (p === "0" ? "hidden, safe in every explanation" : p === "1" ? "hidden, a mine in every explanation"
      : `hidden, mine probability ${p}`) + drawn;
  }
  // A lost game's mines and wrong flags, and an explanation's mines (purple dots): said, not
  // only drawn (a screen reader heard "hidden" on the mine that exploded).
  if (has("exploded")) return "the mine that exploded";
  if (has("wrong-flag")) return "flagged, but not a mine";
  if (has("mine")) return s === "F" ? "flagged, a mine" : "a mine";
  if (s === "." && has("explained")) return "hidden, a mine in the explanation drawn";
  if (s === ".") return "hidden";
  if (s === "F") return "flagged";
  if (s === "-") return "void";
  return "shows " + s;
}

// Probability colour: pale yellow (0) to red (1), lighter as well as redder
// (so it reads without colour vision too), never so dark that the near-black
// percentage falls under a contrast of 4.5:1; safe and mine get rings of their own.
function colour(p) {
  const hue = 55 - 55 * p, light = 90 - 35 * p;
  return `hsl(${hue.toFixed(0)}, 85%, ${light.toFixed(0)}%)`;
}

// What Count adds to countText's power of ten: the exact count (as the CLI prints it),
// in full up to 80 digits; a longer one by its length (the CLI and --json print it all).
function exactly(count) {
  const digits = String(count);
  if (digits.length <= 15) return "";
  if (digits.length > 80) return ` (${digits.length} digits: satsweeper count prints them all)`;
  return `: exactly ${digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",")}`;
}

// A count of explanations as people read it: digits grouped by three, and
// past 15 digits the power of ten first (the exact count stays in the title).
function countText(count) {
  const digits = String(count);
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  const noun = digits === "1" ? "explanation" : "explanations";
  if (digits.length <= 15) return `${grouped} ${noun}`;
  const power = String(digits.length - 1).replace(/\d/g, (d) => "⁰¹²³⁴⁵⁶⁷⁸⁹"[d]);
  return `about ${digits[0]}.${digits.slice(1, 3)} × 10${power} ${noun}`;
}

// "1 round", "2 rounds": the words the CLI uses.
function counted(n, one, many = one + "s") {
  return `${n} ${n === 1 ? one : many}`;
}

function percent(p) {
  if (p === 0) return "0";
  if (p === 1) return "100";
  const v = Math.round(p * 100);
  return v === 0 ? "<1" : v === 100 ? ">99" : String(v);
}

// The probability colours as classes, a shade for every half percent: 40,000
// cells' inline styles took Chromium a third of a second to read.  Added after
// style.css, they paint over the marks' backgrounds as inline styles did.
const SHADES = 200;
document.head.appendChild(Object.assign(document.createElement("style"), {textContent:
  Array.from({length: SHADES + 1}, (_, i) => `.cell.q${i} { background: ${colour(i / SHADES)}; }`).join("\n")}));

function legend(host) {
  host.hidden = false;
  host.innerHTML = `<span class="range">mine probability 0%
    <span class="scale" style="background: linear-gradient(to right, ${colour(0)}, ${colour(.25)}, ${colour(.5)}, ${colour(.75)}, ${colour(1)})"></span>
    100%</span>
    <span><span class="swatch" style="background:${colour(0)}; box-shadow: inset 0 0 0 3px #1e9e3a"></span>safe</span>
    <span><span class="swatch" style="background:${colour(1)}; box-shadow: inset 0 0 0 3px #6d0d0d"></span>certain mine</span>
    <span class="small hover-only">hover a cell for the exact fraction</span>`;
}

// Named cells (a gadget's ports, a compiled formula's variables) carry their name small
// in the corner, above the percentage, as the hint and the answers call them by it.
function nameCells(cells, names) {
  for (const n of names || []) {
    const div = cells.get(key(n.row, n.col));
    if (!div) continue;
    const label = document.createElement("span");
    label.className = "name";
    label.textContent = n.name;
    div.appendChild(label);
  }
}

function mark(cells, list, cls) {
  let host = null;
  for (const c of list || []) {
    const div = cells.get(key(c.row, c.col));
    if (div) {
      div.classList.add(cls);
      host = host || div.closest(".board");
    }
  }
  if (host && host.relabel) host.relabel();
}

// Only the cells marked are visited: a walk over all 40,000 of a large board is felt.
function clearMarks(host, classes) {
  for (const div of host.querySelectorAll(classes.map((c) => ".cell." + c).join(", "))) div.classList.remove(...classes);
  if (host.relabel) host.relabel();
}

// A cell as the answers write it: ROW,COL on a board, its name in a system of equations.
const cellText = (c) => (c.row === undefined ? c.name : `${c.row},${c.col}`);

// Up to 12 cells in words, "…" for more.
// Cells listed with semicolons, as Analyse's safe cells are: read aloud, "0,3, 0,5 and 1,5"
// was a run of numbers with no telling where one cell ends.
const someCells = (list) => list.slice(0, 12).map(cellText).join("; ") + (list.length > 12 ? " …" : "");

function originText(o) {
  if (o.kind === "clue") return `the ${o.number} at ${o.row},${o.col}`;
  if (o.kind === "total") return `the total of ${o.mines} mine${o.mines === 1 ? "" : "s"}`;
  return o.text;
}

// A few cells named, " (0,3; 1,4)": "4 safe cells" said which only to the eye (the green
// rings); a screen reader walked every cell to find them.  Many are left to the board.
function which(cells, most = 12) {
  return cells.length && cells.length <= most ? ` (${cells.map(cellText).join("; ")})` : "";
}

function words(list) {
  if (list.length <= 1) return list.join("");
  return list.slice(0, -1).join(", ") + " and " + list[list.length - 1];
}

// " (highlighted)" when some number among ``origins`` (a conflict, a reason) is outlined
// on the board: the total or a file's start alone outlines nothing.
function outlined(origins, more = "") {
  const some = origins.some((o) => o.kind === "clue");
  return some ? ` (highlighted${more})` : more ? ` (${more.replace(/^; /, "")})` : "";
}

function conflictText(conflict) {
  const items = conflict.map(originText);
  return items.length === 1 ? `inconsistent: ${items[0]} cannot hold`
    : `inconsistent: ${words(items)} cannot ${items.length === 2 ? "both" : "all"} hold`;
}

// "<board>:2:5: expected ..." reads "line 2, column 5: expected ..." on the page.
function errorText(err) {
  const a = err.answer || {};
  if (a.file === "<board>" && a.line) {
    return err.message.replace(/^<board>:\d+(:\d+)?: /, `line ${a.line}${a.col ? `, column ${a.col}` : ""}: `);
  }
  return err.message;
}

// An answer cut off by the server's time limit ("complete": false).
function outOfTime(a) {
  return `no answer within ${a.timeout} s (the server's time limit for one question: ` +
    "satsweeper serve --timeout sets it)";
}

function showError(host, err) {
  host.classList.add("error");
  host.textContent = errorText(err);
}

// Select what an error names in the text box (line and column count from 1): the
// text it says it got ("got": "1000", "'12abc'") when that is what stands there,
// else the whole number there, else the one character.
function pointAt(box, line, col, got) {
  const lines = box.value.split("\n");
  if (!line || line > lines.length) return;
  let at = 0;
  for (let i = 0; i < line - 1; i++) at += lines[i].length + 1;
  at += Math.min(Math.max((col || 1) - 1, 0), lines[line - 1].length);
  const text = box.value;
  const token = typeof got === "string" ? got.replace(/^(['"])(.+)\1$/, "$2") : "";
  let end = Math.min(at + 1, text.length);
  if (token && text.startsWith(token, at) && !token.includes("\n")) end = at + token.length;
  else if (/\d/.test(text[at] || "")) while (/\d/.test(text[end] || "")) end++;
  box.focus();
  box.setSelectionRange(at, end);
}

function showAnswer(host, text) {
  host.classList.remove("error");
  host.textContent = text;
}

function download(name, text) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], {type: "text/plain"}));
  link.download = name;
  document.body.appendChild(link);
  link.click();
  setTimeout(() => { URL.revokeObjectURL(link.href); link.remove(); }, 1000);
}

// ------------------------------------------------------------------ Analyse

// placed: the text the page itself last put in the box (an example, Blank, a file);
// typed: a text of the user's that one of those replaced, to bring back.
// question: the number of the latest question (a cell asked about, Consistent? ...);
// an answer to an earlier one, arriving later, or asked of a board since redrawn, is dropped.
const analysis = {board: null, cells: null, probs: null, text: "", asked: 0, example: null, request: null,
                  placed: null, typed: null, question: 0};

// An example, Blank or a file replaces the text: one the user typed or drew (not one
// the page put there) is kept, and "Back to the text typed before" brings it back.
function replaceText(text) {
  const box = $("board-text");
  if (box.value.trim() && box.value !== analysis.placed && box.value !== text) {
    analysis.typed = box.value;
    $("restore-text").hidden = false;
  }
  box.value = analysis.placed = text;
}

function restoreText() {
  if (analysis.typed === null) return;
  $("board-text").value = analysis.typed;
  analysis.typed = null;
  $("restore-text").hidden = true;
  analyse();
}

function tool() {
  return document.querySelector("input[name=tool]:checked").value;
}

// The board drawn on the page as native text; withMines: a layout's mines as '*'.
function nativeText(board, withMines = false) {
  const head = board.total_mines === null || board.total_mines === undefined ? "" : `mines: ${board.total_mines}\n`;
  const rows = board.rows.map((row) => row.split(""));
  for (const m of (withMines && board.mines) || []) if (rows[m.row][m.col] === ".") rows[m.row][m.col] = "*";
  return head + rows.map((row) => row.join("")).join("\n") + "\n";
}

// The hint box: a summary line, then the hint in the CLI's words, whose
// table of alternatives lines up only in a fixed-width font.
function showHint(host, summary, words) {
  host.textContent = "";
  host.classList.remove("error");
  if (summary) {
    const line = document.createElement("div");
    line.className = "summary";
    line.textContent = summary;
    host.appendChild(line);
  }
  if (words) {
    const pre = document.createElement("pre");
    pre.className = "words";
    pre.textContent = words;
    host.appendChild(pre);
  }
}

// The hinted cell ringed, and (unless told not to) scrolled into sight when the
// board is wider than the window; when the move is sure, the clues that force it outlined.
function drawHint(cells, hint, scroll = true) {
  if (!hint || !hint.cell) return;
  mark(cells, [hint.cell], "hinted");
  if (hint.sure) mark(cells, (hint.reason || []).filter((o) => o.kind === "clue"), "reason");
  const div = cells.get(key(hint.cell.row, hint.cell.col));
  if (div && scroll) inSight(div);
}

// Scroll the board's own box (never the page) so that the cell is in it, centred.
function inSight(div) {
  const wrap = div.closest(".board-wrap");
  if (!wrap) return;
  near(div);
  const cell = div.getBoundingClientRect(), box = wrap.getBoundingClientRect();
  if (cell.left < box.left || cell.right > box.right) {
    wrap.scrollLeft += cell.left - box.left - (box.width - cell.width) / 2;
  }
  if (cell.top < box.top || cell.bottom > box.bottom) {
    wrap.scrollTop += cell.top - box.top - (box.height - cell.height) / 2;
  }
}

function forget() {  // no board drawn: nothing on the page may describe an older text
  analysis.board = analysis.cells = analysis.probs = null;
  const host = $("analyse-board");
  host.innerHTML = "";
  host.dataset.width = "";
  host.removeAttribute("tabindex");
  $("legend").hidden = true;
  hideReached();
}

// The board text is kept for this tab (sessionStorage) as it is typed or drawn:
// a reload, or coming back to the page, found the example in its place.
const KEPT = "satsweeper-board";

function keep(text) {
  try {
    sessionStorage.setItem(KEPT, text);
  } catch (err) {  // over the tab's few megabytes: better nothing kept than an older board
    sessionStorage.removeItem(KEPT);
  }
}

// keepView: a drawing click, whose view must not jump away to the hint.
// Returns the error when the text is refused (null otherwise).
async function analyse(keepView = false) {
  const text = $("board-text").value;
  keep(text);
  if (text !== analysis.example) $("example").value = "";  // the menu names no board it did not load
  const answerBox = $("analyse-answer");
  showAnswer(answerBox, "");
  hideReached();
  showHint($("analyse-hint"), "", "");
  const asked = ++analysis.asked;  // a slower earlier answer must not replace a newer one
  analysis.question++;  // nor an answer about the board before mark this one
  if (analysis.request) analysis.request.abort();  // nor hold one of the server's few workers
  const request = analysis.request = new AbortController();
  $("analyse-board").classList.add("stale");  // the board of the text before, until the answer
  try {
    const answer = await api("analyse", {board: text}, request.signal);
    if (asked !== analysis.asked) return null;
    $("analyse-board").classList.remove("stale");
    analysis.text = text;
    analysis.board = answer.board;
    analysis.probs = answer.probs;
    // The drawing timed to the next frame painted (layout and paint included), as
    // "board drawn" in the page's performance timeline (DevTools; the tests read it).
    const start = performance.now();
    requestAnimationFrame(() => setTimeout(() => performance.measure("board drawn", {start}), 0));
    analysis.cells = drawBoard($("analyse-board"), answer.board, analyseClick, answer.probs);
    nameCells(analysis.cells, answer.board.names);
    if (answer.complete === false) {  // out of time: the board, and what the simplest rule settles
      $("legend").hidden = true;
      mark(analysis.cells, answer.safe, "safe");
      mark(analysis.cells, answer.mine, "certain-mine");
      const drawn = analysis.cells.size > 0;  // not a board too large to draw
      // A sure move the simplest rules find, as hint --timeout gives it (its words say when
      // the position's consistency was not proven in time).
      const sure = answer.hint && answer.hint.cell;
      if (sure) drawHint(analysis.cells, answer.hint, !keepView);
      showAnswer(answerBox, `${outOfTime(answer)}: no probabilities${sure ? "" : " and no hint"}. The single-number ` +
        `rules settle ${counted(answer.safe.length, "safe cell")}${drawn ? " (ringed green)" : ""} and ` +
        `${counted(answer.mine.length, "mine")}${drawn ? " (ringed dark red); click a hidden cell to ask " +
        "about it" : ""}; try Consistent?` +
        (sure ? `\nA sure move found without counting${drawn ? " (circled)" : ""}: ${answer.hint_text}` : ""));
    } else if (answer.probs.consistent) {
      legend($("legend"));
      const safe = answer.probs.cells.filter((c) => c.p === 0);
      const mines = answer.probs.cells.filter((c) => c.p === 1);
      drawHint(analysis.cells, answer.hint, !keepView);
      const drawn = analysis.cells.size > 0;  // a board too large to draw has no circle, no hover
      if (!drawn) $("legend").hidden = true;
      const what = !answer.hint.cell ? "" : !drawn ? " What to click:" : " What to click (circled on the board" +
        `${answer.hint.sure ? ", the clues that force it outlined" : ""}):`;
      // A layout (its mines given) is drawn as its player sees it before the first click.
      const layout = answer.board.mines ? "A layout: drawn before the first click, its mines hidden " +
        "(No-guess? plays it from its start). " : "";
      // A square read as a cell named o, l, f...: said first, as the CLI says it (every answer is about that board).
      const notes = (answer.notes || []).map((n) => `Note: ${n}. `).join("");
      showHint($("analyse-hint"), `${notes}${layout}${countText(answer.probs.count)}; ${counted(safe.length, "safe cell")}` +
        `${which(safe)}, ${counted(mines.length, "certain mine")}${which(mines)}.${what}`, answer.hint_text);
      $("analyse-hint").firstChild.title = `${answer.probs.count} explanations`;
      $("analyse-hint").dataset.count = answer.probs.count;
    } else {
      $("legend").hidden = true;
      mark(analysis.cells, answer.probs.conflict.filter((o) => o.kind === "clue"), "conflict");
      showAnswer(answerBox, conflictText(answer.probs.conflict) + outlined(answer.probs.conflict));
    }
  } catch (err) {
    if (asked !== analysis.asked) return null;
    $("analyse-board").classList.remove("stale");
    forget();
    showError(answerBox, err);
    if (err.answer && err.answer.file === "<board>") pointAt($("board-text"), err.answer.line, err.answer.col, err.answer.got);
    return err;
  }
  return null;
}

async function analyseClick(row, col, event, right) {
  const t = tool();
  if (t !== "ask") return draw(row, col, right ? "." : t);
  const div = analysis.cells.get(key(row, col));
  const answerBox = $("analyse-answer");
  if (!div.classList.contains("hidden")) {
    analysis.question++;  // what it shows is the answer now
    if (div.dataset.state !== "-") {
      showAnswer(answerBox, `${row},${col} shows ${div.dataset.state}: click a hidden cell to ask whether it is safe`);
    }
    return;
  }
  clearMarks($("analyse-board"), ["reason", "asked", "explained", "conflict", "frontier"]);
  div.classList.add("asked");
  // A flag: is it right (a mine whatever the rest), with the flag itself taken away.
  const flagged = div.classList.contains("flag");
  const certainMine = flagged || div.classList.contains("certain-mine");
  const question = ++analysis.question;
  try {
    const answer = await api("safe", {board: analysis.text, row, col, mine: certainMine,
                                      flags: flagged ? "hidden" : "mine"});
    if (question !== analysis.question) return;
    const what = certainMine ? "a mine" : "safe";
    if (answer.complete === false) {
      showAnswer(answerBox, `${row},${col}: ${outOfTime(answer)}`);
    } else if (!answer.consistent) {
      mark(analysis.cells, answer.conflict.filter((o) => o.kind === "clue"), "conflict");
      showAnswer(answerBox, `${row},${col}: no answer, the position is ${conflictText(answer.conflict)}`);
    } else if (answer.safe) {
      const clues = answer.reason.filter((o) => o.kind === "clue");  // a start or the total: nothing to outline
      mark(analysis.cells, clues, "reason");
      showAnswer(answerBox, `${row},${col} is ${what}: ${words(answer.reason.map(originText))} ` +
        `force${answer.reason.length === 1 ? "s" : ""} it${outlined(answer.reason)}`);
    } else {
      mark(analysis.cells, answer.explanation, "explained");
      const p = div.dataset.probability ? ` (mine probability ${div.dataset.probability})` : "";
      const its = `purple dots are its mines${answer.explanation.length <= 12 ? ": " + someCells(answer.explanation) : ""}`;
      // A flag is asked about with the flags taken away (the board's chances keep them): it
      // "is not a mine" read as a fact, beside an explanation that counted it one.
      showAnswer(answerBox, flagged
        ? `${row},${col} may not be a mine (the flag may be wrong): in the explanation drawn, with the ` +
          `flags taken away (${its}), it is safe`
        : `${row},${col} is not ${what}${p}: in the explanation drawn (${its}) it is ` +
          `${certainMine ? "safe" : "a mine"}`);
    }
  } catch (err) {
    if (question === analysis.question) showError(answerBox, err);
  }
}

// A drawing click changes that square of the text and nothing else: rewritten from
// the board drawn, the text lost a layout's mines and start, its comments and names,
// and a .mine file became native text.
async function draw(row, col, symbol) {
  if (!analysis.board) return;
  const box = $("board-text");
  if (box.value !== analysis.text) {  // edited since it was drawn: the click may name another board
    await analyse(true);
    const answerBox = $("analyse-answer"), said = answerBox.textContent;
    if (analysis.board) showAnswer(answerBox, "The text had changed since the board was drawn: drawn again " +
      "from the text as it is now; click again to draw." + (said ? " " + said : ""));
    return;
  }
  const board = analysis.board;
  const wanted = symbol === "number" ? $("tool-number").value : symbol;
  if (board.rows[row][col] === wanted) return;  // e.g. hidden drawn on a layout's mine: nothing to change
  const before = analysis.text, drawn = redrawn(before, board, row, col, wanted);
  const focused = document.activeElement;  // the board, when drawing from the keyboard
  box.value = drawn;
  const refused = await analyse(true);
  // A square the library refuses (an 8 in a corner) is taken back: the board stays
  // drawn and drawable, and the refusal is said (the board vanished on it).
  if (refused && refused.answer && refused.answer.file === "<board>" && box.value === drawn) {
    box.value = before;
    await analyse(true);
    const a = refused.answer;  // its line and column are of the text refused, no longer in the box
    const why = a.expected ? `expected ${a.expected} (got ${a.got})` : errorText(refused);
    if (box.value !== before) return;
    showError($("analyse-answer"), new Error(`not drawn at ${row},${col}, the board is as it was: ${why}`));
    if (focused && focused.id === "analyse-board") focused.focus();  // the error's selection took it
  }
}

// The text with the square at row, col drawn as symbol (0-8, F, . hidden, - void),
// its other lines and squares as they were; where its squares cannot be found
// (or a .mine file is given a void, which it has no square for) the board as native text.
function redrawn(text, board, row, col, symbol) {
  const grid = squaresOf(text);
  const fits = grid && grid.rows.length === board.height && grid.rows.every((r) => r.length === board.width);
  const square = grid && grid.mine ? {".": "H"}[symbol] || symbol : symbol;
  if (!fits || (grid.mine && square === "-")) {
    const rows = board.rows.map((r, i) => (i === row ? r.slice(0, col) + symbol + r.slice(col + 1) : r));
    return nativeText({...board, rows}, true);
  }
  const [start, end] = grid.rows[row][col];
  return text.slice(0, start) + square + text.slice(end);
}

// Where each square of a board text stands, as textio.py reads it: {mine, rows},
// rows[r][c] the [start, end) offsets of square r,c.  Lines end at \n, \r\n or \r;
// a native text skips blank and comment (#) lines and key: value headers, and its
// rows are one character a square, or white-space separated tokens (layout: tokens,
// or any row with white space inside); a .mine file has its rows after its
// WIDTHxHEIGHTxMINES line.
function squaresOf(text) {
  const lines = [];
  const breaks = /\r\n|\r|\n/g;
  let at = text.startsWith("\ufeff") ? 1 : 0, m;
  while ((m = breaks.exec(text)) !== null) {
    lines.push([at, text.slice(at, m.index)]);
    at = m.index + m[0].length;
  }
  if (at < text.length) lines.push([at, text.slice(at)]);
  const first = lines.find(([, line]) => line.trim());
  if (first && /^\s*[0-9]+x[0-9]+x[0-9]+\s*$/.test(first[1])) {
    const height = +first[1].trim().split("x")[1];
    return {mine: true, rows: lines.slice(1, 1 + height).map(([s, line]) => characters(line, s))};
  }
  const rows = [];
  let tokens = false;
  for (const [s, line] of lines) {
    const stripped = line.trim();
    if (!stripped || stripped.startsWith("#")) continue;
    const header = /^\s*([A-Za-z_]+)\s*:\s*(.*?)\s*$/.exec(line);
    if (header && !rows.length) {
      if (header[1].toLowerCase() === "layout") tokens = header[2] === "tokens";
      continue;
    }
    rows.push([s, line]);
  }
  if (!rows.some(([, line]) => /\S\s+\S/.test(line.trim())) && !tokens) {
    return {mine: false, rows: rows.map(([s, line]) => characters(line.trim(), s + line.length - line.trimStart().length))};
  }
  return {mine: false, rows: rows.map(([s, line]) => [...line.matchAll(/\S+/g)].map((t) => [s + t.index, s + t.index + t[0].length]))};
}

// The [start, end) offsets of each character of line (as Python counts them: a
// character beyond U+FFFF is one square, two UTF-16 units), the line at offset s.
function characters(line, s) {
  const out = [];
  for (const ch of line) {
    out.push([s, s + ch.length]);
    s += ch.length;
  }
  return out;
}

function blank() {
  const w = Math.max(1, +$("new-width").value), h = Math.max(1, +$("new-height").value);
  const rows = Array.from({length: h}, () => ".".repeat(w));
  replaceText(nativeText({rows, total_mines: Math.max(0, +$("new-mines").value)}));
  document.querySelector("input[name=tool][value=number]").checked = true;
  analyse();
}

// The example boards (copies of the repository's examples/, shipped with the page).
async function example(name) {
  if (!name) return;
  busy(+1);
  try {
    const response = await fetch("examples/" + name);
    if (!response.ok) throw new Error(`no example ${name} (HTTP ${response.status})`);
    replaceText(analysis.example = await response.text());
    await analyse();
    // On a phone the menu sits below the board: bring the board (its hinted cell) into sight.
    if (TAPPED.matches) {
      const host = $("analyse-board");
      (host.querySelector(".cell.hinted") || host).scrollIntoView({block: "center", inline: "nearest"});
    }
  } catch (err) {
    showError($("analyse-answer"), err);
  } finally {
    busy(-1);
  }
}

async function query(command) {
  const answerBox = $("analyse-answer");
  const text = $("board-text").value;
  if (analysis.cells) clearMarks($("analyse-board"), ["reason", "asked", "explained", "conflict"]);
  hideReached();
  const question = ++analysis.question;
  try {
    const a = await api(command, {board: text});
    if (question !== analysis.question) return;
    const cells = text === analysis.text ? analysis.cells : null;  // the board drawn is this text's
    let out = "";
    if (a.complete === false) {  // out of time: say so, never read the missing fields as an answer
      out = `${command}: ${outOfTime(a)}` + (a.safe && a.mine ? `; the single-number rules settle ` +
        `${counted(a.safe.length, "safe cell")} and ${counted(a.mine.length, "mine")}` : "");
    } else if (a.consistent === false) {
      if (cells) mark(cells, a.conflict.filter((o) => o.kind === "clue"), "conflict");
      out = conflictText(a.conflict) + outlined(a.conflict);
    } else if (command === "check") {
      if (cells) mark(cells, a.explanation, "explained");
      out = cells ? "consistent: one explanation is drawn (purple dots are its mines" +
          `${a.explanation.length <= 12 ? ": " + someCells(a.explanation) : ""})`
        : `consistent: one explanation has its mines at ${someCells(a.explanation)}`;
    } else if (command === "unique") {
      if (cells) mark(cells, a.explanations[0], "explained");
      if (a.unique) {
        out = cells ? "unique: exactly one explanation (drawn)"
          : `unique: exactly one explanation, its mines at ${someCells(a.explanations[0])}`;
      } else {
        const first = new Set(a.explanations[0].map(cellText));
        const second = new Set(a.explanations[1].map(cellText));
        const only = (list, other) => list.filter((c) => !other.has(cellText(c)));
        // In reading order, as the CLI says them (first's then second's read 12,6 before 3,2).
        const differ = only(a.explanations[0], second).concat(only(a.explanations[1], first))
          .sort((p, q) => (p.row ?? Infinity) - (q.row ?? Infinity) || (p.col ?? 0) - (q.col ?? 0) ||
                cellText(p).localeCompare(cellText(q)));
        if (cells) mark(cells, differ, "reason");
        out = `not unique: two explanations differ at ${words(differ.slice(0, 12).map(cellText))}` +
          (differ.length > 12 ? " …" : "") + (cells ? " (the first is drawn, the cells where they differ outlined)" : "");
      }
    } else if (command === "count") {
      out = countText(a.count) + exactly(a.count);
    } else if (command === "noguess") {
      out = noGuessText(a);
    }
    showAnswer(answerBox, out);
    if (command === "noguess" && a.no_guess === false && a.position) showReached(a);
  } catch (err) {
    if (question === analysis.question) showError(answerBox, err);
  }
}

// No-guess? in words: solved, with the grade and its hardest step (the CLI's lines); or
// stuck, with the safest guess (the position reached is drawn below: showReached).
function noGuessText(a) {
  if (a.no_guess) return [...a.head_text, ...(a.grade_text || [])].join("\n");
  // As the CLI says it: a round that decided nothing is "at once", not "after 1 round".
  const when = a.single_clue || a.multi_clue ? `after ${counted(a.rounds, "round")}`
    : "at once: the first click's numbers decide no cell";
  const odds = a.position_probs.cells.filter((c) => c.p > 0 && c.p < 1).sort((x, y) => x.p - y.p);
  const safest = odds.length ? `; the safest guess is ${cellText(odds[0])} (a mine ${odds[0].probability}, ` +
    `${(odds[0].p * 100).toFixed(1)}%)` : "";
  return `no-guess: no, stuck ${when}; a guess is forced${safest}. The position reached is drawn ` +
    `below, each hidden cell with its chance of a mine; the ${counted(a.frontier.length, "undetermined cell")} ` +
    "next to a number are outlined.";
}

// The position a stuck no-guess check reached, drawn under the answer (the layout's board
// above stays as it is: its clicks ask about the text, which this position is not).
function showReached(a) {
  const host = $("reached-board");
  host.parentElement.hidden = false;
  mark(drawBoard(host, a.position, null, a.position_probs), a.frontier, "frontier");
  host.parentElement.scrollIntoView({block: "nearest"});
}

function hideReached() {
  $("reached-board").parentElement.hidden = true;
  $("reached-board").innerHTML = "";
}

async function save(format) {
  try {
    const a = await api("board", {board: $("board-text").value});
    // A board with voids (or no total) has no .mine: its .txt still downloads.
    if (format === "mine" && a.mine === null) throw new Error(`no .mine file: ${a.mine_refused}`);
    download(format === "mine" ? "board.mine" : "board.txt", format === "mine" ? a.mine : a.native);
  } catch (err) {
    showError($("analyse-answer"), err);
  }
}

// ------------------------------------------------------------------ Play

// hint: the hint shown in the box, ringed again when the board is redrawn without asking
// anew (the probabilities ticked); null once a move or a new game makes it stale.
// shown: the moves that made the board on the page (those after it changed nothing, and
// are dropped: Undo takes back one move that did something).
const game = {deal: null, moves: [], answer: null, cells: null, auto: false, busy: false, asked: 0, hint: null,
              hintWords: "", taken: null, seedTyped: false, shown: null};

function level() {
  const v = $("level").value;
  return v === "custom" ? $("custom-level").value.trim() : v;
}

// The game on the board is kept for this tab, as the board text is (a reload dealt a
// fresh beginner game): its deal, its moves and the level list's choice.
const KEPT_GAME = "satsweeper-game";

function keepGame() {
  try {
    sessionStorage.setItem(KEPT_GAME, JSON.stringify({deal: game.deal, moves: game.moves}));
  } catch (err) {
    sessionStorage.removeItem(KEPT_GAME);
  }
}

// The kept game put back (its settings in the controls, its board asked for); false if
// there is none.  Refused now (by another version of the server): a new game instead.
function resumeGame() {
  let kept = null;
  try {
    kept = JSON.parse(sessionStorage.getItem(KEPT_GAME));
  } catch (err) {
    kept = null;
  }
  if (!kept || !kept.deal || !Array.isArray(kept.moves)) return false;
  const d = kept.deal;
  const listed = [...$("level").options].some((o) => o.value === d.level);
  $("level").value = listed ? d.level : "custom";
  $("custom-level").hidden = listed;
  if (!listed) $("custom-level").value = d.level;
  $("rule").value = d.rule;
  $("no-guess").checked = d.no_guess;
  $("seed").value = d.seed;
  game.deal = d;
  game.moves = kept.moves;
  refresh(false, "deal").then((a) => {
    if (a === undefined && game.deal === d) {
      sessionStorage.removeItem(KEPT_GAME);
      newGame();
    }
  });
  return true;
}

// A level, rule or no-guess box changed: that game at once, on the seed in the box (the
// level list said Intermediate over a beginner board still in play).
// A select's choice acted on once it is made. The arrow keys change a closed select at each
// press (Chromium fires "change" each time): arrowing through the levels dealt a game at
// each and threw the game in progress away. A change the keys made waits for Enter or for
// the focus to leave; a click acts at once.
function chosen(select, act) {
  let keyed = -Infinity, waiting = false;
  const now = () => { if (waiting) { waiting = false; act(); } };
  select.addEventListener("keydown", (e) => {
    if (e.key === "Enter") { keyed = -Infinity; now(); }
    else if (e.key !== "Tab" && e.key !== "Shift") keyed = performance.now();
  });
  select.addEventListener("mousedown", () => { keyed = -Infinity; });
  select.addEventListener("change", () => {
    if (performance.now() - keyed < 500) waiting = true;
    else act();
  });
  select.addEventListener("blur", now);
}

function redeal() {
  if ($("level").value === "custom" && !$("custom-level").value.trim()) return;
  game.seedTyped = true;
  newGame();
}

// "New game" deals the next seed, unless one was typed since the last deal (to
// replay a game): the box always shows the seed of the game on the board.
async function newGame() {
  game.auto = false;
  said("");  // the last game's last move is not this game's
  const box = $("seed");
  // An emptied box is no seed typed (+"" would deal seed 0 and show none).
  if (!box.value.trim()) {
    game.seedTyped = false;
    box.value = game.deal ? game.deal.seed : 0;
  }
  if (game.deal && !game.seedTyped && +box.value === game.deal.seed) box.value = game.deal.seed + 1;
  game.seedTyped = false;
  game.deal = {level: level(), rule: $("rule").value, no_guess: $("no-guess").checked, seed: +box.value};
  game.moves = [];
  game.shown = null;
  game.hint = null;
  showHint($("play-hint"), "", "");
  const a = await refresh(false, "deal");
  // Said: the status alone ("mines left: 10") is not said again when it is the same.
  if (a) said(`new game: ${a.board.width}×${a.board.height}, ${counted(a.board.total_mines, "mine")}, seed ${game.deal.seed}`);
  // On a phone the controls come below the board: a game dealt from there (a landscape
  // screen holds not both) is brought into sight, its Hint and flag mode above it.
  const top = $("play-status").getBoundingClientRect().top;
  if (TAPPED.matches && (top < 0 || top > window.innerHeight)) $("play-status").scrollIntoView({block: "start"});
}

// The board as the player sees it: a move that leaves it so did nothing.
const seen = (a) => a.outcome + ":" + a.board.rows.join("/");

// why: "deal" for a new game's first request, "move" when the last of game.moves is new;
// a request that fails takes back only that (a failed hint or redraw changes nothing: it
// took back the player's last real move).
async function refresh(withHint, why = "") {
  game.busy = true;
  const before = game.answer;
  const asked = ++game.asked;
  try {
    const a = await api("game", {...game.deal, moves: game.moves, hint: withHint, probs: $("show-probs").checked});
    if (asked !== game.asked) return null;
    if (a.complete === false) throw new Error(a.stopped || outOfTime(a));
    if (a.board.width * a.board.height > DRAWN) {  // dealt "playing" with nothing to click
      throw new Error(`expected a level of at most ${DRAWN.toLocaleString()} squares to play here ` +
        `(got ${a.board.width}×${a.board.height}); satsweeper bench plays bigger ones`);
    }
    if (game.shown && game.shown.seen === seen(a)) game.moves.length = game.shown.moves;
    game.shown = {seen: seen(a), moves: game.moves.length};
    game.answer = a;
    keepGame();
    game.cells = drawBoard($("play-board"), a.board, playClick, a.probs);
    const flags = a.board.rows.join("").split("F").length - 1;
    const status = $("play-status");
    status.className = "status " + (a.outcome === "playing" ? "" : a.outcome);
    const now = a.outcome === "won" ? "You won! Every safe cell is open."
      : a.outcome === "lost" ? "Boom: a mine. Game lost." : `mines left: ${a.board.total_mines - flags}`;
    // Rewritten only when it changes: a live region says every rewrite, and "mines left: 10"
    // was said again after every move and every hint.
    if (status.textContent !== now) status.textContent = now;
    if (why === "move" && !game.auto && before) said(moveSaid(before, a, game.moves[game.moves.length - 1]));
    titled();
    if (a.outcome !== "playing") {
      showMines(a);
      game.auto = false;
      game.hint = null;
      // A hint from before the end names a move no longer there, but a hinted guess that
      // lost keeps what it said: the chance the player took.
      const taken = game.taken, lost = a.exploded && taken && taken.row === a.exploded.row &&
        taken.col === a.exploded.col;
      showHint($("play-hint"), lost ? "Lost on the hinted guess; the hint said:" : "", lost ? taken.words : "");
    }
    game.taken = null;
    $("play-legend").hidden = !(a.probs && a.probs.consistent);
    if (a.probs && a.probs.consistent) {
      legend($("play-legend"));
    } else if ($("show-probs").checked && !a.probs && a.outcome === "playing") {
      // Before the first click under a rule that keeps it safe (the server gives no chances then).
      const play = $("play-legend");
      play.hidden = false;
      play.textContent = "No probabilities before the first click: it is safe wherever it is" +
        (a.rule === "opening" ? " and opens a region" : "") + " (the mines are placed after it).";
    }
    const conflict = a.hint && a.hint.consistent === false ? a.hint.conflict
      : a.probs && !a.probs.consistent && a.outcome === "playing" ? a.probs.conflict : null;
    if (a.hint && a.hint.cell) {
      game.hint = a.hint;
      game.hintWords = a.hint_text;
      drawHint(game.cells, a.hint);
      showHint($("play-hint"), "", a.hint_text);
    } else if (conflict) {  // flags no layout explains: the numbers they overfill outlined
      game.hint = null;
      mark(game.cells, conflict.filter((o) => o.kind === "clue"), "conflict");
      showHint($("play-hint"), conflictText(conflict) + outlined(conflict, "; check your flags"), "");
    } else if (game.hint && a.outcome === "playing") {
      drawHint(game.cells, game.hint, false);
    }
    return a;
  } catch (err) {
    if (asked !== game.asked) return null;
    if (why === "deal") {  // a deal the server refused: no board of an older game stays up
      $("play-board").innerHTML = "";
      $("play-legend").hidden = true;
      $("play-status").className = "status lost";
      $("play-status").textContent = "No game";
      game.answer = null;
    } else if (why === "move") {
      game.moves.pop();  // the move refused (or out of time) is not made: a click may try again
    }
    game.hint = null;
    showHint($("play-hint"), errorText(err), "");
    $("play-hint").classList.add("error");
    game.auto = false;
    return undefined;  // failed (undo puts its move back)
  } finally {
    game.busy = false;
    $("undo").disabled = !game.moves.length;
  }
}

// One move back (after a loss too): the game is replayed from its deal and the moves
// left, so the layout stays the one the first click drew.
async function undo() {
  if (!game.deal || game.busy) return;
  if (!game.moves.length) {  // U with nothing to take back: said, not silence
    said("nothing to take back");
    return;
  }
  game.auto = false;
  const taken = game.moves.pop();
  game.shown = null;
  game.hint = null;
  showHint($("play-hint"), "", "");
  // A failed request (undefined; null is one superseded) leaves the board as it was: so the moves.
  const a = await refresh(false);
  if (a === undefined) {
    game.moves.push(taken);
    $("undo").disabled = false;
  } else if (a) {  // said (it was silent, the last move's words still in the region)
    const [kind, row, col] = taken;
    said(`took back ${{open: "opening", flag: "the flag at", unflag: "unflagging", chord: "the chord at"}[kind]} ` +
      `${row},${col}`);
  }
  // Undo disabled itself (no move left) while it had the focus: the focus fell to the page's
  // body, and a keyboard or screen reader user lost their place.  The board takes it.
  if (document.activeElement === document.body || document.activeElement === $("undo")) {
    if ($("undo").disabled) $("play-board").focus();
  }
}

// What a move did, for the screen reader ("" for a lost game: the status says it).
function moveSaid(before, a, move) {
  if (!move || a.outcome === "lost") return "";
  const [kind, row, col] = move, at = `${row},${col}`;
  if (kind === "flag") return `${at} flagged`;
  if (kind === "unflag") return `${at} unflagged`;
  const opened = [];  // the cells this move opened, and what each shows
  a.board.rows.forEach((line, r) => {
    for (let c = 0; c < line.length; c++) {
      if ("F.".includes(before.board.rows[r][c]) && !"F.".includes(line[c])) opened.push(`${r},${c} shows ${line[c]}`);
    }
  });
  const many = counted(opened.length, "cell");
  if (kind === "chord") {  // which cells, when few (a single open says what it shows)
    return !opened.length ? `chord at ${at}: nothing to open`
      : `chord at ${at}: ${many} opened` + (opened.length <= 8 ? `: ${opened.join("; ")}` : "");
  }
  const shows = a.board.rows[row][col];
  return opened.length > 1 ? `${at} shows ${shows}: ${many} opened` : `${at} shows ${shows}`;
}

function said(text) {
  $("play-said").textContent = text;
}

// The tab's title says the mode, and how a game ended (a screen reader's window list).
function titled() {
  const mode = (document.querySelector("#tabs button.active") || {}).dataset;
  const name = {analyse: "Analyse", play: "Play", gadgets: "Gadgets"}[mode && mode.mode] || "";
  const over = name === "Play" && game.answer && game.answer.outcome !== "playing" ? ` (${game.answer.outcome})` : "";
  document.title = name ? `satsweeper: ${name}${over}` : "satsweeper";
}

function showMines(a) {
  const mines = new Set((a.board.mines || []).map(cellText));
  for (const [k, div] of game.cells) {
    if (mines.has(k) && !div.classList.contains("flag")) div.classList.add("mine");
    if (!mines.has(k) && div.classList.contains("flag")) div.classList.add("wrong-flag");
  }
  if (a.exploded) game.cells.get(key(a.exploded.row, a.exploded.col)).classList.add("exploded", "mine");
  if ($("play-board").relabel) $("play-board").relabel();
}

// A tap while the last move's answer is awaited is not played (the moves would race): the
// corner's "working…" shows at once, where the tap was dropped without a sign.
function stillWorking() {
  if (!game.busy) return false;
  if (pending > 0) $("working").hidden = false;
  return true;
}

function playClick(row, col, event, right) {
  if (!game.deal || stillWorking() || !game.answer || game.answer.outcome !== "playing") return;
  const state = game.answer.board.rows[row][col];
  const flag = right || $("flag-mode").checked;
  if (state === "-") return;
  if (flag && !game.moves.some((m) => m[0] === "open")) {  // the server would drop it without a word
    showHint($("play-hint"), "Flags come after the first click: the mines are placed when it is made.", "");
    return;
  }
  // The hinted guess, if this is it (its words are kept should it lose).
  const h = game.hint;
  game.taken = h && h.cell && !h.sure && !flag && h.cell.row === row && h.cell.col === col
    ? {row, col, words: game.hintWords} : null;
  if (flag && state === ".") game.moves.push(["flag", row, col]);
  else if (flag && state === "F") game.moves.push(["unflag", row, col]);
  else if (state === ".") game.moves.push(["open", row, col]);
  else if (state !== "F") game.moves.push(["chord", row, col]);
  else return;
  game.hint = null;
  showHint($("play-hint"), "", "");
  refresh(false, "move");
}

async function hintMove() {
  if (!game.deal || stillWorking()) return;
  const over = game.answer && game.answer.outcome !== "playing" ? game.answer.outcome : null;
  if (over) {  // the button did nothing, without a word
    showHint($("play-hint"), `No hint: the game is ${over}. New game deals another` +
      (over === "lost" ? "; Undo takes back the move that lost." : "."), "");
    return;
  }
  await refresh(true);
}

async function autoPlay() {
  if (!game.deal) await newGame();
  game.auto = !game.auto;
  $("auto-play").textContent = game.auto ? "Stop" : "Auto-play";
  if (!game.auto) return;  // Stop: the game's loop below sees it and ends
  // Its moves unsaid: one press made 146 announcements (each move's hint, then the status).
  // The regions are quiet while it plays, and then say how it ended, once.
  const quiet = [$("play-hint"), $("play-status")], deal = game.deal;
  for (const region of quiet) region.setAttribute("aria-live", "off");
  try {
    await autoMoves();
  } finally {
    for (const region of quiet) region.setAttribute("aria-live", "polite");
    if (game.deal === deal) {  // not when New game ended it: that game's words are said
      said(`Auto-play ${game.answer && game.answer.outcome !== "playing" ? "ended" : "stopped"}: ` +
        $("play-status").textContent + ($("play-hint").textContent ? " " + $("play-hint").textContent : ""));
    }
  }
}

async function autoMoves() {
  let moved = false;  // the hinted move pushed last round, made by this round's request
  const deal = game.deal;
  while (game.auto) {
    const a = await refresh(true, moved ? "move" : "");
    moved = false;
    if (!a || a.outcome !== "playing" || !a.hint || !a.hint.cell) break;
    game.moves.push([a.hint.move === "flag" ? "flag" : "open", a.hint.cell.row, a.hint.cell.col]);
    game.taken = a.hint.sure ? null : {row: a.hint.cell.row, col: a.hint.cell.col, words: a.hint_text};
    moved = true;
    game.hint = null;
    await new Promise((done) => setTimeout(done, 60));
  }
  // Stopped between choosing a move and playing it: the move is dropped (it stayed in the
  // moves, and the next key played it unsaid, with its own).
  if (moved && game.deal === deal) {
    game.moves.pop();
    game.taken = null;
    $("undo").disabled = !game.moves.length;
  }
  if (game.auto) await refresh(false);
  game.auto = false;
  $("auto-play").textContent = "Auto-play";
}

// ------------------------------------------------------------------ Gadgets

// asked: the latest question's number: a slower earlier answer must not replace a newer one.
const gadgetState = {list: [], answer: null, shown: 0, asked: 0};

async function loadGadgets() {
  let a;
  try {
    a = await api("gadgets");
  } catch (err) {  // the tab stayed blank, the error only in the console; a later visit asks again
    showError($("gadget-verdict"), err);
    return;
  }
  gadgetState.list = a.gadgets;
  const select = $("gadget-name");
  select.innerHTML = "";
  for (const g of a.gadgets) {
    const option = document.createElement("option");
    option.value = g.name;
    option.textContent = `${g.name} (${g.width}×${g.height}): ${g.claim}`;
    select.appendChild(option);
  }
  gadgetInputs();
}

function gadgetInputs() {
  const g = gadgetState.list.find((x) => x.name === $("gadget-name").value);
  const host = $("gadget-inputs");
  host.innerHTML = "<span>inputs:</span>";
  for (const name of g.inputs) {
    const label = document.createElement("label");
    label.innerHTML = `<input type="checkbox" data-input="${name}"> ${name} = <b>0</b>`;
    label.querySelector("input").onchange = (e) => {
      label.querySelector("b").textContent = e.target.checked ? "1" : "0";
      showGadget();
    };
    host.appendChild(label);
  }
  showGadget();
}

async function showGadget() {
  const name = $("gadget-name").value;
  const inputs = [...document.querySelectorAll("#gadget-inputs input")].map((i) => (i.checked ? 1 : 0));
  const asked = ++gadgetState.asked;
  try {
    const a = await api("gadget", {name, inputs});
    if (asked !== gadgetState.asked) return;
    if (a.complete === false) throw new Error(outOfTime(a));
    gadgetState.answer = a;
    gadgetState.shown = 0;
    $("gadget-verdict").classList.remove("error");  // an error shown before is answered now
    const verdict =
      `<b>${a.gadget}</b>: computes its claim: <span class="${a.computes ? "ok" : "bad"}">${a.computes ? "yes" : "no"}</span>; ` +
      `unique: <span class="${a.unique ? "ok" : "bad"}">${a.unique ? "yes" : "no"}</span>; ` +
      `same number of mines for every input: ${a.constant_mines ? "yes" : "no"}`;
    // Rewritten only when it changes (a live region): each input toggled said the same verdict again.
    if ($("gadget-verdict").innerHTML !== verdict) $("gadget-verdict").innerHTML = verdict;
    casesTable(a);
    explanationButtons(a);
    drawGadget();
  } catch (err) {
    if (asked !== gadgetState.asked) return;
    showError($("gadget-verdict"), err);
  }
}

function explanationButtons(a) {
  const host = $("gadget-explanations");
  host.innerHTML = "";
  (a.case.explanations || []).forEach((_, i) => {
    const b = document.createElement("button");
    b.textContent = `explanation ${i + 1}`;
    b.onclick = () => { gadgetState.shown = i; drawGadget(); };
    host.appendChild(b);
  });
}

// A large gadget is drawn whole at first (its shape, the ports and the
// explanation's mines); "zoom in" draws it large enough to read, scrolling.
function drawGadget() {
  const a = gadgetState.answer;
  const host = $("gadget-board");
  host.dataset.smallest = $("gadget-zoom").checked ? 18 : 2;
  host.dataset.whole = "1";
  const cells = drawBoard(host, a.board);
  $("gadget-zoom-row").hidden = Math.min(Math.floor(room(host) / a.board.width),
                                         Math.floor(roomDown(host) / a.board.height)) >= 18;
  const outputs = new Set(Object.keys(a.outputs_claimed));
  for (const [port, c] of Object.entries(a.ports)) {
    const div = cells.get(key(c.row, c.col));
    const out = outputs.has(port) && !a.inputs.includes(port);
    div.classList.add("port-cell", ...(out ? ["out"] : []));
    div.title = `${port}: ${out ? "an output" : "an input"}`;
    const label = document.createElement("span");
    label.className = out ? "port out" : "port";
    label.textContent = port;
    div.appendChild(label);
  }
  // The other named cells (Kaye's s, x, t1 ...) carry their names, as gadget draw writes
  // them: the claims and a teacher's slides call the cells by them.
  nameCells(cells, a.board.names.filter((n) => !(n.name in a.ports)));
  const c = a.case;
  const shown = (c.explanations || [])[gadgetState.shown];
  if (shown) mark(cells, shown, "explained");
  // A case with no explanation: the numbers that cannot all hold, as gadget draw outlines them.
  if (!c.consistent) mark(cells, (c.conflict || []).filter((o) => o.kind === "clue"), "conflict");
  // Explored from the keyboard as the other boards are: each square, port and mine said.
  if (cells.size) keyboard(host, a.board, cells, () => {});
  // Squares too small for numbers and names: what the colours are, and where the ports are
  // (a class saw red, blue and purple with no key, and no port named).
  const tiny = host.classList.contains("tiny-cells");
  const named = (list) => words(list.map((p) => `${p} at ${cellText(a.ports[p])}`));
  const outs = Object.keys(a.ports).filter((p) => outputs.has(p) && !a.inputs.includes(p));
  const ports = `Inputs (blue): ${named(a.inputs)}` +
    (outs.length ? `; output${outs.length > 1 ? "s" : ""} (orange): ${named(outs)}.` : ".");
  $("gadget-key").hidden = false;
  $("gadget-key").textContent = tiny ? "too small for numbers: dark grey, a hidden square; blue, an input; " +
      "orange, an output; red, a flag; " +
      `purple, a mine of the explanation drawn; light grey, a revealed number. ${ports}` : ports;
  if ($("gadget-zoom").checked) {  // zoomed in, the board opened at its top-left corner, often empty:
    // its first port in the middle of the box (by arithmetic: runs out of sight are not laid out)
    const first = Object.values(a.ports)[0], box = host.parentElement;
    const size = parseFloat(host.style.getPropertyValue("--cell"));
    if (first && size) {
      box.scrollLeft = Math.max(0, (first.col + .5) * size - box.clientWidth / 2);
      box.scrollTop = Math.max(0, (first.row + .5) * size - box.clientHeight / 2);
      sight(host);
    }
  }
  const ins = a.inputs.map((n, i) => `${n}=${c.inputs[i]}`).join(" ");
  let text;
  if (!c.consistent) {
    const clash = (c.conflict || []).filter((o) => o.kind === "clue");
    text = `inputs ${ins}: no explanation` + (c.accepted ? " (the gadget claims one: wrong)" : " (as claimed)") +
      (clash.length ? `; ${words(clash.map(originText))} cannot all hold (outlined)` : "");
  } else {
    const outs = Object.entries(c.outputs).map(([p, s]) => `${p} is ${s === "mine" ? "1 (a mine)" : s === "safe" ? "0 (safe)" : "undetermined"}` +
      ` (claimed ${c.expected[p]})`);
    text = `inputs ${ins}: ` +
      `${outs.length ? "outputs: " + outs.join(", ") + "; " : ""}` +
      `${c.unique ? "exactly one explanation" : `${c.count} explanations (two are offered)`}; ` +
      `explanation ${gadgetState.shown + 1} drawn (purple dots are its mines)`;
  }
  $("gadget-case").textContent = text;
}

function casesTable(a) {
  const outs = a.cases.length ? Object.keys(a.cases[0].expected) : [];
  let html = `<tr>${a.inputs.map((n) => `<th>${n}</th>`).join("")}${outs.map((n) => `<th>${n} forced</th><th>${n} claimed</th>`).join("")}<th>explanations</th><th>mines</th><th>check</th></tr>`;
  const shown = a.case.inputs.join(",");
  for (const c of a.cases) {
    const bit = (s) => (s === "mine" ? "1" : s === "safe" ? "0" : "?");
    const current = c.inputs.join(",") === shown;
    html += `<tr${current ? ' class="current" title="the inputs drawn"' : ""}>${c.inputs.map((v) => `<td>${v}</td>`).join("")}` +
      outs.map((p) => `<td>${c.consistent ? bit(c.outputs[p]) : "–"}</td><td>${c.expected[p]}</td>`).join("") +
      `<td>${c.explanations}</td><td>${c.mines.join("/")}</td><td class="${c.correct ? "ok" : "bad"}">${c.correct ? "ok" : "BAD"}</td></tr>`;
  }
  $("gadget-cases").innerHTML = html;
}

// ------------------------------------------------------------------ wiring

function setMode(mode) {
  for (const b of document.querySelectorAll("#tabs button")) {
    b.classList.toggle("active", b.dataset.mode === mode);
    b.setAttribute("aria-pressed", String(b.dataset.mode === mode));  // said, not only drawn white
  }
  // The sections' ids are not the address's #analyse, #play, #gadgets: an address naming an
  // element moved the keyboard's starting point there, and the first Tab skipped the tabs.
  for (const s of document.querySelectorAll(".mode")) s.hidden = s.id !== "mode-" + mode;
  document.querySelectorAll(".board").forEach(sight);  // a large board drawn while its mode was not shown
  if (mode === "gadgets" && !gadgetState.list.length) loadGadgets();
  if (mode === "play" && !game.deal && !resumeGame()) newGame();
  history.replaceState(null, "", "#" + mode);
  titled();
}

const EXAMPLE = `mines: 10
..1.....
.21.....
.1......
11......
........
`;

window.addEventListener("DOMContentLoaded", () => {
  for (const b of document.querySelectorAll("#tabs button")) b.onclick = () => setMode(b.dataset.mode);
  $("analyse-button").onclick = () => analyse();
  $("board-file").onchange = (e) => {
    const file = e.target.files[0];
    if (!file) return;
    // Emptied, so that choosing the same file again (edited since) is a change and is read.
    e.target.value = "";
    file.text().then((text) => { replaceText(text); analyse(); });
  };
  $("new-board").onclick = blank;
  chosen($("example"), () => example($("example").value));
  for (const b of document.querySelectorAll("[data-query]")) b.onclick = () => query(b.dataset.query);
  $("download-native").onclick = () => save("native");
  $("download-mine").onclick = () => save("mine");
  chosen($("level"), () => {
    const custom = $("level").value === "custom";
    $("custom-level").hidden = !custom;
    if (custom) $("custom-level").focus();
    redeal();
  });
  $("custom-level").onchange = redeal;
  chosen($("rule"), redeal);
  $("no-guess").onchange = redeal;
  $("new-game").onclick = newGame;
  $("seed").oninput = () => { game.seedTyped = true; };
  $("hint-button").onclick = hintMove;
  $("undo").onclick = undo;
  $("auto-play").onclick = autoPlay;
  $("show-probs").onchange = () => game.deal && refresh(false);
  chosen($("gadget-name"), gadgetInputs);  // arrowing through the list asked for every gadget passed
  $("gadget-zoom").onchange = () => gadgetState.answer && drawGadget();
  $("board-text").oninput = () => {
    keep($("board-text").value);
    // The buttons ask about the text, the board's clicks about the board drawn: once the two
    // differ, the board is dimmed until Analyse draws the text (it looked current, under
    // answers about another board).
    if (analysis.board) $("analyse-board").classList.toggle("stale", $("board-text").value !== analysis.text);
  };
  const kept = sessionStorage.getItem(KEPT);
  if (kept !== null) $("board-text").value = kept;
  else if (!$("board-text").value) $("board-text").value = analysis.placed = EXAMPLE;
  $("restore-text").onclick = restoreText;
  window.addEventListener("hashchange", () => {
    const wanted = location.hash.slice(1);
    if (["analyse", "play", "gadgets"].includes(wanted)) setMode(wanted);
  });
  const mode = location.hash.slice(1);
  setMode(["analyse", "play", "gadgets"].includes(mode) ? mode : "analyse");
  analyse();
});
