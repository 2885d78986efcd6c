#!/bin/bash
# time from launching the command until the setup screen is drawn in a real terminal (tmux)
H=$(mktemp -d)
tmux kill-session -t ssT 2>/dev/null
start=$(date +%s.%N)
tmux new -d -s ssT -x 80 -y 24 "STEPPING_STONES_HOME=$H ${STEPPING_STONES_BIN:-stepping-stones}"
while ! tmux capture-pane -p -t ssT 2>/dev/null | grep -q "Start game"; do sleep 0.01; done
end=$(date +%s.%N)
echo "startup: $(echo "$end - $start" | bc) s"
tmux kill-session -t ssT
