#!/usr/bin/env bash
# Renders the main views of `palink demo` to images in screenshots/:
# the demo runs in a tmux pane of 120×40, each view is captured with its
# colours (tmux capture-pane -e) and drawn to SVG by charmbracelet/freeze
# (installed from the Go module proxy when missing). `make screenshots`
# runs it. Needs go and tmux. SCREENSHOT_PNG=1 also writes PNGs (large).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
out=${SCREENSHOTS_DIR:-$root/screenshots}
work=$(mktemp -d)
session="palink-shots-$$"
cleanup() {
	tmux kill-session -t "$session" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

command -v tmux >/dev/null || { echo "screenshots: tmux is not installed" >&2; exit 1; }
freeze=$(command -v freeze || true)
if [[ -z $freeze ]]; then
	GOBIN=$work/bin go install github.com/charmbracelet/freeze@v0.2.2
	freeze=$work/bin/freeze
fi
(cd "$root" && go build -o "$work/palink" .)
mkdir -p "$out"

screen() { tmux capture-pane -t "$session" -p; }
wait_for() {
	local deadline=$((SECONDS + 60))
	until screen | grep -qE -- "$1"; do
		((SECONDS < deadline)) || { echo "screenshots: waited for /$1/" >&2; screen >&2; exit 1; }
		sleep 0.2
	done
}
key() { local k; for k in "$@"; do tmux send-keys -t "$session" "$k"; sleep 0.2; done; }
text() { tmux send-keys -t "$session" -l -- "$1"; sleep 0.2; }

# shot NAME: captures the pane and draws it. freeze's ANSI reader knows
# neither "default colour" (39, 49) nor reverse (7, 27): they are turned into
# explicit colours first, so that colours do not bleed and the cursor shows.
shot() {
	sleep 0.5
	tmux capture-pane -t "$session" -e -p |
		sed -e 's/\x1b\[7m/\x1b[48;5;238m/g; s/\x1b\[27m/\x1b[0m/g; s/\x1b\[39m/\x1b[38;5;252m/g; s/\x1b\[49m//g' >"$work/$1.ansi"
	"$freeze" "$work/$1.ansi" -l ansi -o "$out/$1.svg" >/dev/null
	if [[ ${SCREENSHOT_PNG:-} == 1 ]]; then
		"$freeze" "$work/$1.ansi" -l ansi -o "$out/$1.png" >/dev/null
	fi
	echo "screenshots: $out/$1.svg"
}

tmux new-session -d -s "$session" -x 120 -y 40 \
	"env HOME=$work XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data XDG_STATE_HOME=$work/state TERM=xterm-256color COLORTERM=truecolor '$work/palink' demo 2>$work/stderr; sleep 60"

# The demo lives its hour as it opens (a second or a few): wait for the job
# the restart policy gave up on, then for the hour's end.
wait_for "▲ RUNNING [1-9]"
wait_for "✖ FAILED [1-9]"
sleep 4
shot jobs

key /
text "state:RUNNING"
key Enter Enter
wait_for "Overview"
wait_for "YARN RUNNING"
shot job-detail
key Tab Tab
shot job-checkpoints
key m
wait_for "records in/s"
key t # the last hour: the demo has lived it
sleep 1
shot job-metrics
key l
wait_for "JobManager"
key Enter
wait_for "INFO"
shot log-viewer
key Escape
sleep 0.3
key e
wait_for "CREATE TABLE"
sleep 1
shot sql-editor
key Escape
sleep 0.3
key C-k
wait_for "Kill "
shot confirm-kill
key Escape
sleep 0.3
key Escape
sleep 0.3
key Escape
sleep 0.3
key Escape

key :
text "cmd"
key Enter
wait_for "Commands"
shot commands

key :
text "cluster"
key Enter
wait_for "Flink applications palink does not manage"
shot cluster

key Escape
sleep 0.3
key :
text "alerts"
key Enter
wait_for "FIRING|RESOLVED|no alert"
shot alerts

key Escape
sleep 0.3
key Escape
sleep 0.3
key "?"
wait_for "Help"
shot help

# The demo's shared assets: the table catalog, the UDF registry, and a
# project's build view.
key Escape
sleep 0.3
key :
text "tables"
key Enter
wait_for "users +v2"
shot tables
key Escape
sleep 0.3
key :
text "udfs"
key Enter
wait_for "risk_score"
shot udfs
key Escape
sleep 0.3
key :
text "projects"
key Enter
wait_for "sessionizer"
key b
wait_for "succeeded|failed"
shot build
key Escape
sleep 0.3
key Escape
sleep 0.3

# Finding the cause: the lookup-join job's graph, its bottleneck outlined,
# and the bottleneck's flame graph.
key Escape
sleep 0.3
key /
text "orders-enrich"
key Enter Enter
wait_for "Overview"
key BTab BTab
wait_for "bottleneck"
sleep 1
shot graph
key f
wait_for "all · [0-9]+ samples"
shot flame

# Completion in the editor: a function's name begun at the end of the
# script, the popup of built-ins with their signatures under the line.
key Escape
sleep 0.3
key e
wait_for "CREATE TABLE"
key C-End Enter
text "SELECT TO_"
key C-Space
wait_for "TO_TIMESTAMP"
shot sql-completion
