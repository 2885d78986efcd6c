"""Names that look unused to vulture but are used by a library, by name (read by vulture only).

Vulture scans src only (pyproject.toml), so a name only the tests use shows up: remove it, or keep
it as a test hook listed below with what it is for.

Each line is a name that something outside this project's code reads or calls:"""

# ruff: noqa
bias  # ai/features.py: a field of Features, read by position in the model's dot product
(
    side_tops,
    side_strength,
    side_high,
    side_low,
    side_length,
    trump_strength,
    short_with_trumps,
)  # ai/features.py: the same
no_wrap  # cli/*: a rich Column setting
__call__  # lab/simulate.py: the method of a Protocol
candidate_declared, baseline_declared  # lab/tournament.py: fields of a result that --json prints
_server  # serve/server.py: aiohttp's BaseSite keeps its asyncio server there (its stop() closes it)
_open_app_process, _stdin  # serve/tabs.py: textual-serve's AppService calls and reads them
parameters  # tui/*: the second argument of Textual's check_action(action, parameters)
control  # tui/widgets.py: Textual's Message.control, read by @on(..., selector)
highlighted  # tui/listed.py: Textual's OptionList.highlighted, a reactive the list reads
_return_code  # tests/test_saving.py: what Textual's App.run sets when the app stops on an exception
log_message  # tests/test_serve.py: http.server's BaseHTTPRequestHandler calls it for every request
pytestmark  # tests/*: pytest reads a module's marks (xdist_group) by this name
dont_write_bytecode  # tests/conftest.py: the interpreter's import system reads sys.dont_write_bytecode
handleError  # net/log.py: logging.Handler calls it when writing a line fails
connection_made  # net/server.py: asyncio calls it on a protocol (_Refused) once a connection is accepted
format  # storage/records.py, storage/sidecar.py, net/tables.py: a pydantic model's field, the file's format tag
(
    ai_decision_ms,
    ai_decision_cpu_ms,
    ai_decision_sets,
    solver_ms,
    solver_cpu_ms,
)  # lab/speed.py: keys of BenchJSON, printed by bench --json
solver_positions_per_cpu_s  # lab/speed.py: a key of BenchJSON (docs/json.md)
can_pop  # engine/game.py: the engine's public API, every action in its three forms (verify_, can_, the action)

# Test hooks: code in src that only the tests call, kept on purpose.
offset_of  # tui/hand_panel.py: HandPanel's click geometry (where on_click reads a card), for the tests' clicks

# For the lead: used only by the tests or scripts, in modules being reorganised (net/, ai/solver*),
# so not removed here: each is to be removed, or kept as a test hook.
received, resyncs  # net/client.py: SeatClient counters read by tests/test_net_deltas.py and scripts/load_test_tables.py
play_glances  # net/client.py: the load test's bots (scripts/load_test_tables.py) and tests/test_net_deltas.py
states, state_for  # net/tables.py: Table's whole states, read by tests/test_net_protocol.py and test_net_deltas.py
solve  # ai/solver.py: the one-call solve, used by tests/test_solver.py and scripts/measure_solver_ratio.py
renderer  # tui/app.py: Textual's ScrollBar reads its class attribute renderer to draw every scrollbar
VERTICAL_BARS, HORIZONTAL_BARS  # tui/widgets.py: Textual's ScrollBarRender reads them for a bar's ends
max_chance_nodes_in_history, make_py_observer  # openspiel/game.py: pyspiel's PyGame calls them by name
current_player, _legal_actions, _apply_action, _action_to_string  # openspiel/game.py: pyspiel's PyState calls them
set_from, string_from  # openspiel/observer.py: pyspiel's PyObserver calls them by name

# OpenSpiel calls a Python game's state by these names (pyspiel's State API).
chance_outcomes, returns, resample_from_infostate  # openspiel/game.py
# Test hooks and the lab's scripts (vulture scans src only).
state_of, engine  # openspiel/game.py: a pyspiel state of an engine game, and back, for tests/test_openspiel.py
with_settings  # ai/params.py: scripts/bid_screen.py and play_screen.py build the expert's settings from --param
(
    summary_hand,
    hints,
    undo,
)  # flow/presenter.py: fields of the Presentation the web page reads (its JSON, net/pageseat.py)
__pydantic_config__  # net/wire.py, net/protocol.py: pydantic reads a TypedDict's config from this attribute
__class_getitem__  # net/wire.py: Python calls it for tuple[...] and dict[...] in the view's annotations
view_json, read_view  # net/wire.py: a view on the wire alone, for tests/test_net_protocol.py
