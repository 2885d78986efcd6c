"""Names that look unused to vulture but are used by a library, by name (read by vulture only).

Each line is a name that something outside this project's code reads or calls:"""
# ruff: noqa
bias  # ai/features.py: a field of Features, read by position in the model's dot product
no_wrap  # cli/*: a rich Column setting
__call__  # lab/simulate.py: the method of a Protocol
candidate_declared, baseline_declared  # lab/tournament.py: fields of a result that --json prints
_server  # serve/server.py: aiohttp's BaseSite keeps its asyncio server there (its stop() closes it)
_open_app_process, _stdin  # serve/tabs.py: textual-serve's AppService calls and reads them
parameters  # tui/*: the second argument of Textual's check_action(action, parameters)
control  # tui/widgets.py: Textual's Message.control, read by @on(..., selector)
_return_code  # tests/test_saving.py: what Textual's App.run sets when the app stops on an exception
log_message  # tests/test_serve.py: http.server's BaseHTTPRequestHandler calls it for every request
pytestmark  # tests/*: pytest reads a module's marks (xdist_group) by this name
dont_write_bytecode  # tests/conftest.py: the interpreter's import system reads sys.dont_write_bytecode
max_chance_nodes_in_history, make_py_observer  # openspiel/game.py: pyspiel's PyGame calls them by name
current_player, _legal_actions, _apply_action, _action_to_string  # openspiel/game.py: pyspiel's PyState calls them
set_from, string_from  # openspiel/observer.py: pyspiel's PyObserver calls them by name
