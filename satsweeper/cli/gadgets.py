"""Gadgets and circuits: gadget list / verify / draw / write, repair, compile."""

from __future__ import annotations

import os
import re
from pathlib import Path

import click

from ..limits import TimeUp, within
from .contract import (BoardOutput, InputFile, Positive, OutputDir, OutputPath, UserError, cut, emit, json_option, make_directory,
                       refuse_overwriting_input, timeout_option, LIMIT, verdict, write_output, working)

MAX_INPUTS = 16  # 2**16 pinned counts; more would run for hours
# What a compiled board's explanations are, by gate set: the first lines of its file.
GATES_SAY = {"parsimonious": "one explanation per model of the formula, and none else",
             "balanced": "one explanation per model of the formula, none else, all with the same mines",
             "kaye": "an explanation for every model of the formula and none else (Kaye's AND gives some two)"}
MAX_CELLS = 25_000_000  # satsweeper.gadgets.compiler.MAX_CELLS (not imported: the CLI loads it lazily)


def load_gadget(reference: str, files: str = "a gadget file"):
    """A library gadget by name, or a gadget file (``-`` for stdin)."""
    from ..gadgets import gadget_names, named_gadget, parse_gadget
    if reference in gadget_names():
        return named_gadget(reference)
    if reference != "-" and not Path(reference).exists():
        # Say both halves: a typo in a file name is as likely as one in a gadget's.
        raise UserError(f"a gadget name ({', '.join(gadget_names())}) or {files}",
                        f"{cut(reference)}: no gadget of that name, and no such file")
    source = InputFile().convert(reference, None, None)
    gadget = parse_gadget(source.text.lstrip("\ufeff"), source.name)
    if len(gadget.inputs) > MAX_INPUTS:
        raise UserError(f"at most {MAX_INPUTS} inputs (every combination is counted)",
                        f"{len(gadget.inputs)} inputs", source.name)
    return gadget


def load_gadget_or_board(reference: str):
    """(gadget or puzzle, plain, comments): a library gadget, a gadget file, or a
    plain board file (``plain`` True: its board is repaired by ``repair_board``,
    whose only claim is to have an explanation; the puzzle keeps its layout
    and start for the file written); ``comments``: a file's '#' lines, kept in
    the file written."""
    from ..gadgets import gadget_names
    from ..gadgets.gadget import gadget_of
    from .subjects import read_puzzle_from
    if reference in gadget_names() or (reference != "-" and not Path(reference).exists()):
        return load_gadget(reference, "a board or gadget file"), False, ()
    source = InputFile().convert(reference, None, None)
    puzzle = read_puzzle_from(source)
    comments = tuple(line.strip() for line in source.text.splitlines() if line.lstrip().startswith("#"))
    if puzzle.extras:
        found = gadget_of(puzzle, source.name)
        if len(found.inputs) > MAX_INPUTS:
            raise UserError(f"at most {MAX_INPUTS} inputs (every combination is counted)",
                            f"{len(found.inputs)} inputs", source.name)
        return found, False, comments
    return puzzle, True, comments


@click.group()
def gadget() -> None:
    """Gadgets: boards whose named cells carry Boolean signals (Kaye's and
    Pedersen's wires and gates)."""


@gadget.command(name="list")
@json_option
def gadget_list(as_json):
    """The library's gadgets, their sizes (WIDTHxHEIGHT) and claims.

    \b
    Examples:
      satsweeper gadget list
      satsweeper gadget list --json
    """
    from ..gadgets import gadget_names, named_gadget
    from ..report.gadgets import listing_json
    rows = listing_json((name, named_gadget(name)) for name in gadget_names())
    # Columns as wide as their widest entry (sizes run to 158x107).
    sizes = [f"{r['width']}x{r['height']}" for r in rows]
    names_at, sizes_at = max(map(len, (r["name"] for r in rows))), max(map(len, sizes))
    inputs_at = max(len(" ".join(r["inputs"])) for r in rows)
    text = "\n".join(f"{r['name']:<{names_at}}  {size:<{sizes_at}}  inputs {' '.join(r['inputs']):<{inputs_at}}  "
                     f"{r['claim']}" for r, size in zip(rows, sizes))
    emit("gadget list", as_json, {"gadgets": rows}, text, 0)


@gadget.command(name="verify")
@click.argument("reference", metavar="NAME|FILE")
@json_option
def gadget_verify(reference, as_json):
    """Every input combination: consistent?, outputs forced, explanations,
    mines; then the verdict (computes its claim, unique, same mines).

    \b
    Examples:
      satsweeper gadget verify or
      satsweeper gadget verify gadgets/figures/fig-3.4-and.txt --json
    """
    from ..gadgets import verify
    from ..report.gadgets import verdict_json, verdict_text
    answer = verify(load_gadget(reference))
    emit("gadget verify", as_json, verdict_json(answer), verdict_text(answer), verdict(answer.computes))


@gadget.command(name="draw")
@click.argument("reference", metavar="NAME|FILE")
@click.option("-o", "--output", required=True, type=OutputPath((".svg", ".png")),
              help="Picture to write: .svg or .png.")
@click.option("--inputs", "setting", metavar="PORT=0|1,...",
              help="Set every input (e.g. u=1,v=0): draw one explanation's mines and say the "
                   "outputs forced and how many explanations there are.")
@json_option
def gadget_draw(reference, output, setting, as_json):
    """Draw a gadget for a slide: its claim as the title, input ports outlined
    blue and output ports orange; with --inputs, the gadget at work.  Exit 1
    when that input is not as claimed, or (no --inputs) when no input has an
    explanation: then the numbers that clash are outlined magenta.

    \b
    Examples:
      satsweeper gadget draw and -o and.png
      satsweeper gadget draw xor -o xor-10.svg --inputs u=1,v=0
    """
    from ..gadgets.gadget import case, clash as gadget_clash
    from ..render import OVERVIEW, Picture, render
    from ..report.gadgets import case_caption, claim_title
    from .pictures import require_matplotlib
    require_matplotlib()
    g = load_gadget(reference)
    refuse_overwriting_input(output, reference)
    marks = {g.cell(p): "input" for p in g.inputs} | {g.cell(p): "output" for p in g.outputs}
    data = {"output": str(output), "gadget": g.name, "inputs": None}
    overview = max(g.board.width, g.board.height) > OVERVIEW  # drawn with its ports named, no outline or mine
    caption, code, mines = port_legend(g), 0, frozenset()
    if setting is not None:
        values = input_values(g, setting)
        checked, witness = case(g, values)
        mines = witness or frozenset()
        caption = case_caption(g, checked, bool(witness) and not overview)
        code = verdict(checked.correct)
        data.update(inputs=dict(zip(g.inputs, map(int, values))), explanations=str(checked.explanations),
                    outputs={p: s.value for p, s in checked.outputs.items()},
                    expected={p: int(v) for p, v in checked.expected.items()}, correct=checked.correct,
                    mines_drawn=[list(c) for c in sorted(mines)])
    # case() has said whether the input set has an explanation: no second solve when it has.
    clash = gadget_clash(g) if setting is None else gadget_clash(g, values) if not checked.consistent else ()
    if clash:  # a broken figure drawn as if it worked: say so, and where (check's minimal conflict)
        from ..constraints import Clue
        from ..report.views import conflict_text, origin_json
        marks |= {o.cell: "move" for o in clash if isinstance(o, Clue)}
        said = f"{conflict_text(tuple(str(o) for o in clash))} (outlined magenta)"
        if setting is None:  # no input works: the gadget is broken
            caption, code = f"{said}; {caption}", verdict(False)
        else:  # why this input has no explanation (as claimed or not: the case says which)
            caption = f"{caption}; why: {said.removeprefix('inconsistent: ')}"
        data["conflict"] = [origin_json(o) for o in clash]
    if overview:
        caption = (caption if setting is not None else "") + \
            f"{'; ' if setting is not None else ''}too big to draw square by square: an overview, ports named"
    # the outlines' key stays under a case's caption too (it went, leaving blue and orange unexplained)
    shown = caption if overview or setting is None else f"{caption}; {port_legend(g)}"
    picture = Picture(marks=marks, mines=mines, title=claim_title(g), caption=shown)
    note = write_output(output, lambda path: render(g.board, str(path), picture=picture))
    emit("gadget draw", as_json, data, "\n".join(filter(None, [caption, note])), code)


def port_legend(g) -> str:
    """What the outlines mean, the ports named."""
    inputs = f"blue outline: inputs {', '.join(g.inputs)}"
    if not g.outputs:  # a terminator: "orange outline: outputs none" named a colour drawn nowhere
        return f"{inputs}; no output port"
    return f"{inputs}; orange outline: outputs {', '.join(g.outputs)}"


def input_values(g, setting: str) -> tuple[bool, ...]:
    """``u=1,v=0`` -> the values in the gadget's input order; every input exactly once."""
    wanted = f"every input of {g.name} set once, as {','.join(f'{p}=0|1' for p in g.inputs)}"
    given: dict[str, bool] = {}
    if any(not item.strip() for item in setting.split(",")):  # "u=1,,v=0": a value left out?
        raise UserError(wanted, cut(setting))
    for item in setting.replace(",", " ").split():
        port, equals, value = item.partition("=")
        if not equals or port not in g.inputs or value not in ("0", "1") or port in given:
            raise UserError(wanted, cut(setting))
        given[port] = value == "1"
    if set(given) != set(g.inputs):
        raise UserError(wanted, cut(setting))
    return tuple(given[p] for p in g.inputs)


@gadget.command(name="write")
@click.argument("directory", type=OutputDir(), metavar="DIRECTORY")
@click.argument("names", nargs=-1, metavar="[NAME]...")
@json_option
def gadget_write(directory, names, as_json):
    """Write gadgets to DIRECTORY as NAME.txt: by default the library's (the
    repository's gadgets/, those `gadget list` shows before the balanced-*
    set); NAMEs choose which, the balanced ones too (built on demand, up to
    188x141 squares).  DIRECTORY is created if its parent exists.

    \b
    Examples:
      satsweeper gadget write gadgets
      satsweeper gadget write mine balanced-and balanced-not
    """
    from ..gadgets import gadget_names, gadget_text
    from ..gadgets.library import BUILDERS
    known = gadget_names()
    for name in names:  # before any file is written: all or nothing
        if name not in known:
            raise UserError(f"a gadget name among {', '.join(known)}", f"{cut(name)}: no gadget of that name")
    path = directory
    make_directory(path)
    # Each file atomically, and replacing them is said, as for every output.
    chosen = list(dict.fromkeys(names)) or list(BUILDERS)
    written = [path / f"{name}.txt" for name in chosen]
    replaced = sum(w.exists() for w in written)
    for name, target in zip(chosen, written):
        write_output(target, gadget_text(name))
    # "replaced", the files replaced, is the contract's list (emit adds it): not a count here
    emit("gadget write", as_json, {"directory": str(path), "files": [str(w) for w in written]},
         f"wrote {len(written)} gadget{'s' if len(written) != 1 else ''} to {path}"
         + (f" (replaced the {replaced} file{'s' if replaced != 1 else ''} that {'were' if replaced != 1 else 'was'} there)"
            if replaced else ""), 0)


@click.command(name="repair")
@click.argument("reference", metavar="NAME|FILE")
@click.option("-o", "--output", type=BoardOutput(), help="Write the repaired board or gadget here, as native text (not .mine, not over the input); "
                   "a layout stays one: its mines ('*') and start.")
@click.option("--attempts", default=200, show_default=True, type=click.IntRange(1),
              help="Optimal change sets to try before giving up (exit 3); each takes milliseconds on a "
                   "small board (a 4x4 board needing four changes took 42 with --unique).")
@click.option("--unique", is_flag=True, help="Also make it unique: one explanation per input.")
@json_option
def repair(reference, output, attempts, unique, as_json):
    """The fewest changes of numbers that make a board consistent (with
    --unique: with exactly one explanation), or a gadget figure consistent and
    computing its claim (MaxSAT), each optimum verified by counting.

    \b
    Examples:
      satsweeper repair examples/conflict.txt --unique -o fixed.txt
      satsweeper repair gadgets/figures/fig-3.5-or-as-printed.txt -o or.txt
      satsweeper repair and --unique
    """
    from ..gadgets import format_gadget
    from ..gadgets.repair import repair as find_repair, repair_board, repaired_layout
    from ..report.gadgets import board_repair_text, repair_json, repair_text
    from ..textio import format_board
    refuse_overwriting_input(output, reference)
    if output and output.suffix.lower() == ".mine":
        # The repair is written with comments naming each change, which .mine cannot hold
        # (nor a gadget's names, ports and voids).
        raise UserError("a native file for the repaired board (its comments name the changes; a .mine file "
                        "holds no comments)", f"-o {cut(str(output))}")
    subject, plain, comments = load_gadget_or_board(reference)
    result = repair_board(subject.board, attempts, unique) if plain else find_repair(subject, attempts, unique)
    ok = bool(result.gadget and result.verdict.computes and (result.verdict.unique or not unique))
    data = repair_json(result, unique)
    data["output"] = None  # the file written, if one is
    text = board_repair_text(result, unique) if plain else repair_text(result, unique)
    if ok and output:
        note = "\n".join(f"repaired {c}" for c in result.changes)
        if plain:
            # A layout stays a layout ('*' and start:), with mines that fit the new numbers.
            board, layout = result.gadget.board, subject.mines
            if layout is not None:
                kept = repaired_layout(board, layout)
                data["mines"] = "kept" if kept == layout else "replaced" if kept is not None else "dropped"
                if kept != layout:
                    said = ("the mines ('*'): the repaired numbers' only explanation (the input's "
                            "no longer fit them: a layout's numbers are its mines' own, so no change of "
                            "numbers keeps them; to keep the mines, reveal more cells instead)"
                            if kept is not None else
                            "no mines ('*'): the input's no longer fit the repaired numbers")
                    note += "\n" + said
                    text += f"\n{output}: {said}"  # on screen too: the author's layout changed
                layout = kept
            start = subject.start if subject.start not in (layout or ()) else None
            # The author's comments first (else '-o' over the input loses them), then the repair's;
            # a gadget's too, below.
            content = "".join(f"{line}\n" for line in comments) + \
                "".join(f"# {line}\n" for line in note.strip().splitlines()) + format_board(board, layout, start)
        else:
            # A changed gadget is named as its file (gadgets/ names each so): kept, the broken
            # figure's name ("...-as-printed") was said of the repaired one.  Unchanged, it keeps its own.
            from dataclasses import replace
            fixed = replace(result.gadget, name=output.stem) if result.changes else result.gadget
            content = "".join(f"{line}\n" for line in comments) + format_gadget(
                fixed, f"gadget {result.gadget.name}, its numbers repaired:\n{note}" if result.changes else note)
        text += "\n" + write_output(output, content)
        data["output"] = str(output)
    elif output:  # say so: the changes printed above might be taken for a board written
        text += f"\n{output} not written: no repair found"
        data["output"] = None
    # Attempts run out before an answer: a limit (exit 3), not a proof that none exists (exit 1).
    emit("repair", as_json, data, text, verdict(ok) if ok or result.complete else LIMIT)


@click.command(name="compile")
@click.argument("formula")
@click.option("--gates", type=click.Choice(["parsimonious", "kaye", "balanced"]), default="parsimonious",
              show_default=True,
              help="Pedersen's OR (one explanation per model), Kaye's AND (two when both inputs are false), "
                   "or balanced (one explanation AND one mine total per model: a .mine with its total "
                   "keeps every model; boards about 3.5 times larger).")
@click.option("-o", "--output", type=BoardOutput(),
              help="Write the board here: .mine for JSMinesweeper (with a total mine count), else native.")
@click.option("--no-count", is_flag=True, help="Do not count the board's explanations (big formulas).")
@click.option("--models", "show_models", is_flag=True, help="Also list the models (the truth table's true rows).")
@click.option("--max-cells", type=click.IntRange(1), default=MAX_CELLS, show_default=True, metavar="SQUARES",
              help="Refuse a board of more squares, with its estimated size, before drawing it "
                   "(each square costs about 125 bytes while compiling; the default is about 3 GB).")
@click.option("--max-memory", type=Positive(), default=8.0, show_default=True,
              metavar="GB", help="Stop counting when the count needs more memory than this; say how far it got.")
@timeout_option
@json_option
def compile_formula(formula, gates, output, no_count, show_models, max_cells, max_memory, timeout, as_json):
    """Compile FORMULA (pyeda syntax, or a file holding one or a DIMACS CNF; -
    for stdin) into one board whose explanations are the formula's models: one free wire per
    variable, named after it, and the formula forced true.  Prints the number
    of models (from the truth table), the board's size and its explanations.

    \b
    Examples:
      satsweeper compile "(a | ~b) & (b ^ c)" --models
      satsweeper compile "a | b" --gates kaye -o or.mine
      satsweeper compile "a | b" --gates balanced -o or.mine
    """
    from ..components import Progress
    from ..gadgets.compiler import BoardTooLarge, GateSet, compile_formula as build
    from ..gadgets.formula import parse_dimacs, parse_formula, read_formula
    from ..report.gadgets import compile_json, compile_text, models_json, models_text
    refuse_overwriting_input(output, formula)
    if formula == "-":
        source = InputFile().convert("-", None, None)
        head = source.text.lstrip("\ufeff").lstrip()
        parsed = (parse_dimacs(source.text, source.name) if head.startswith(("p cnf", "c"))
                  else parse_formula(source.text, source.name))
    elif formula.strip() and os.path.lexists(formula) and not Path(formula).is_file():
        # A directory or a broken link is a mistake, not a variable of that name.
        what = "a directory" if Path(formula).is_dir() else "not a readable file (a broken or looping link?)"
        raise UserError("a formula or a DIMACS file", f"{cut(formula)}, {what}")
    else:
        parsed = read_formula(formula)
        if os.path.isfile(formula) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", formula):
            # "compile a" with a file a there: the file was read, not the variable a, without a word
            click.echo(f"satsweeper: note: read the formula from the file {formula} (for the variable, "
                       f"write ({formula}))", err=True)
    try:
        with working(f"compiling {len(parsed.variables)} variable{'s' if len(parsed.variables) != 1 else ''}"):
            compiled = build(parsed, GateSet(gates), max_cells)
    except BoardTooLarge as refused:
        data = {"formula": str(parsed), "variables": list(parsed.variables), "gates": gates,
                "complete": False, "stopped": str(refused), "max_cells": max_cells, "size": refused.size.json()}
        emit("compile", as_json, data, f"refused: {refused}", LIMIT)
    mine = bool(output) and output.suffix.lower() == ".mine"
    progress = Progress.shared()

    def count_it():
        """The explanations (unless --no-count) and, for a .mine, the mine totals: two counts."""
        found = None if no_count else compiled.explanations(progress)
        return found, compiled.mine_totals(progress) if mine else None

    explanations, totals, stopped = None, None, None
    if mine or not no_count:
        # Loaded before the fork: under --max-memory the child could not map
        # the buffers numpy's OpenBLAS reserves when it is first imported.
        import numpy  # noqa: F401
        try:
            with working(f"counting {compiled.hidden} hidden squares"):
                explanations, totals = within(timeout, count_it, memory=int(max_memory * 1e9))
        except TimeUp:
            stopped = f"no count within {timeout:g} s (--timeout)"
        except MemoryError:
            stopped = f"the count needs more than {max_memory:g} GB (--max-memory)"
    if stopped:
        data = compile_json(compiled, None, None)
        data.update(complete=False, stopped=stopped, timeout=timeout, progress=progress.json())
        emit("compile", as_json, data,
             compile_text(compiled, None, None) + f"\n{stopped}; stopped {progress.text()}", LIMIT)
    written, said = None, None
    if output:
        board, why = compiled.with_total(totals) if mine else (compiled.board, None)
        from ..textio import format_board, format_mine
        # Tokenized rows name their cells on purpose: a variable o, l or I gets no "typo for 0?" note.
        if output.suffix.lower() == ".mine":
            text = format_mine(board)
        else:  # what the board is, in its file: a render or a reader later sees only squares
            text = (f"# compiled by satsweeper compile --gates {gates}: {parsed}\n"
                    f"# {GATES_SAY[gates]}; variables {' '.join(parsed.variables)}\n"
                    + format_board(board, tokenized=True))
        said = write_output(output, text)
        written = (str(output), board.total_mines, why)
    data = compile_json(compiled, explanations, written)
    text = compile_text(compiled, explanations, written, said)
    if show_models:
        data["model_list"] = models_json(parsed)
        text += "\n" + models_text(parsed)
    models = compiled.models
    ok = explanations is None or models is None or compiled.gates is GateSet.KAYE or explanations == models
    emit("compile", as_json, data, text, verdict(ok))


COMMANDS = (gadget, repair, compile_formula)
