#!/usr/bin/env bash
# End-to-end test of the TUI: runs `palink demo` in a tmux pane of 120×40,
# types keys like a user (filter, open a job, pause it with confirmation,
# restart it, kill it), and asserts on the captured screen, which shows the
# job states the service reports. Needs go and tmux. `make e2e` runs it.
#
# Environment: PALINK=/path/to/palink to test a built binary; E2E_TIMEOUT
# (seconds, default 45) bounds each wait for the cluster.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
session="palink-e2e-$$"
timeout=${E2E_TIMEOUT:-45}
bin=${PALINK:-$work/palink}

cleanup() {
	tmux kill-session -t "$session" 2>/dev/null || true
	rm -rf "$work"
}
trap cleanup EXIT

command -v tmux >/dev/null || { echo "e2e: tmux is not installed" >&2; exit 1; }
if [[ -z ${PALINK:-} ]]; then
	(cd "$root" && go build -o "$bin" .)
fi

screen() { tmux capture-pane -t "$session" -p; }

fail() {
	echo "e2e: FAIL: $*" >&2
	echo "---- screen ----" >&2
	screen >&2 || true
	exit 1
}

# wait_for TEXT...: waits until the screen shows every text (fixed strings).
wait_for() {
	local deadline=$((SECONDS + timeout)) t missing
	while :; do
		missing=""
		local s
		s=$(screen)
		for t in "$@"; do
			grep -qF -- "$t" <<<"$s" || { missing=$t; break; }
		done
		[[ -z $missing ]] && return 0
		((SECONDS < deadline)) || fail "waited ${timeout}s for \"$missing\""
		sleep 0.2
	done
}

# wait_re REGEX: waits until a screen line matches an extended regex.
wait_re() {
	local deadline=$((SECONDS + timeout))
	until screen | grep -qE -- "$1"; do
		((SECONDS < deadline)) || fail "waited ${timeout}s for /$1/"
		sleep 0.2
	done
}

# key NAME...: sends keys one at a time; a pause between them keeps esc
# from merging with the next key into alt+key.
key() {
	local k
	for k in "$@"; do
		tmux send-keys -t "$session" "$k"
		sleep 0.15
	done
}

# text STRING: types literal text.
text() { tmux send-keys -t "$session" -l -- "$1"; sleep 0.15; }

step() { echo "e2e: $*"; }

# --- a fleet of 5,000: the UI opens while the jobs are still being created --
start=$(date +%s%N)
tmux new-session -d -s "$session" -x 120 -y 40 \
	"env HOME=$work XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data XDG_STATE_HOME=$work/state TERM=xterm-256color '$bin' demo --managed 5000 2>$work/stderr; sleep 60"
wait_for "Jobs · all clusters" "jobs "
ms=$(( ($(date +%s%N) - start) / 1000000 ))
step "demo --managed 5000: jobs view after ${ms} ms"
((ms < ${E2E_BIG_FIRST_SCREEN_MS:-2000})) || fail "demo --managed 5000 took ${ms} ms to open"
tmux kill-session -t "$session"

# --- start ---------------------------------------------------------------
start=$(date +%s%N)
tmux new-session -d -s "$session" -x 120 -y 40 \
	"env HOME=$work XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data XDG_STATE_HOME=$work/state TERM=xterm-256color '$bin' demo 2>$work/stderr; echo palink-exited-\$?; sleep 60"
wait_for "Jobs · all clusters" "jobs "
ms=$(( ($(date +%s%N) - start) / 1000000 ))
step "jobs view after ${ms} ms"
((ms < ${E2E_FIRST_SCREEN_MS:-1000})) || fail "the jobs view took ${ms} ms to open"
# The demo opens on a fleet that has lived an hour: within a second of the
# first frame a RUNNING row has its sparkline and an alert fires.
first=$(date +%s%N)
wait_re "RUNNING .*[▁▂▃▄▅▆▇█]{3,}"
wait_re "⚠ [0-9]+ alert"
ms=$(( ($(date +%s%N) - first) / 1000000 ))
step "a RUNNING row with its sparkline and a firing alert ${ms} ms after the first frame"
((ms < ${E2E_ALIVE_MS:-1000})) || fail "the fleet took ${ms} ms to come alive"
wait_re "▲ RUNNING [1-9]"

# --- filter: find a running job ------------------------------------------
step "filter state:RUNNING"
key /
text "state:RUNNING"
key Enter
wait_for "filter: state:RUNNING"
job=$(screen | grep -m1 '▸' | sed -E 's/^│▸[ ✓]+//' | awk '{print $1}')
[[ -n $job ]] || fail "no running job under the cursor"
screen | grep -m1 '▸' | grep -qF "RUNNING" || fail "the filtered row is not RUNNING"
step "chose $job"
key Escape
key /
text "$job"
key Enter
wait_for "filter: $job"
screen | grep -m1 '▸' | grep -qF " $job " || fail "$job is not under the cursor after filtering by its name"

# --- open it -------------------------------------------------------------
step "open $job"
key Enter
wait_for "Overview" "Timeline" "Checkpoints"
wait_for "YARN RUNNING"

# --- where it hurts: the graph, a vertex, back -------------------------------
key BTab BTab
wait_re "bottleneck|no bottleneck stands out"
step "the Graph tab of $job"
key Enter
wait_re "skew|even"
step "a vertex of $job subtask by subtask"
key Escape
wait_re "bottleneck|no bottleneck stands out"
key Tab Tab
wait_for "Overview"
wait_re "^ $job  RUNNING"

# --- pause, with the confirmation (default Cancel first) -------------------
step "pause $job: enter on the default button cancels"
key p
wait_for "Pause $job?" "Cancel"
key Enter
sleep 1
screen | grep -qF "PAUSE #" && fail "enter on Cancel paused the job"
wait_re "^ $job  RUNNING"

step "pause $job: confirm"
key p
wait_for "Pause $job?"
key Tab
key Enter
wait_for "queued for $job"
wait_re "^ $job  FINISHED"
step "$job is FINISHED"

# --- restart from its savepoint -------------------------------------------
step "restart $job"
key r
wait_for "Restart $job?"
key Tab
key Enter
wait_for "RESTART #"
wait_re "^ $job  RUNNING"
step "$job is RUNNING again"


# --- kill ------------------------------------------------------------------
step "kill $job"
key C-k
wait_for "Kill $job?" "State is NOT saved"
if screen | grep -qF "Type $job to kill"; then
	text "$job"
	key Enter
else
	key Tab
	key Enter
fi
wait_for "KILL #"
wait_re "^ $job  KILLED"
step "$job is KILLED"

# --- back to the table, which shows the same state --------------------------
key Escape
wait_re "^│▸ +$job +([a-z0-9-]+ +)?KILLED" # the CLUSTER column goes first on a narrow table of one cluster
step "the jobs table shows $job KILLED"

# --- the cluster turns slow, then unreachable: the UI keeps answering ------
# The simulator's RM address is in the header ("● sim 127.0.0.1:PORT …").
rm=$(screen | head -1 | grep -oE '127\.0\.0\.1:[0-9]+' | head -1)
[[ -n $rm ]] || fail "no RM address in the header"
# PUT /sim/faults on the simulator's admin API, with bash's /dev/tcp (no curl needed).
sim_faults() {
	local body=$1 host=${rm%:*} port=${rm#*:}
	exec 3<>"/dev/tcp/$host/$port"
	printf 'PUT /sim/faults HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s' \
		"$rm" "${#body}" "$body" >&3
	cat <&3 >/dev/null
	exec 3<&-
}
step "every cluster request now takes 20s (longer than the client timeout)"
sim_faults '{"all":{"latency":"20s"}}'
key Escape
wait_re "RUNNING"
step "keys answer at once while the cluster hangs"
t0=$(date +%s%N)
key "?"
wait_for "esc or ? closes"
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
((ms < 1500)) || fail "help took ${ms} ms to open while the cluster was slow"
step "help opened in ${ms} ms"
key Escape
key /
text "state:RUNNING"
key Enter
wait_for "filter: state:RUNNING"
slow=$(screen | grep -m1 '▸' | sed -E 's/^│▸[ ✓]+//' | awk '{print $1}')
[[ -n $slow ]] || fail "no running job to act on"
step "savepoint of $slow fails and the flash line says so"
key s
wait_for "queued for $slow"
# A command retries a cluster that does not answer (5 tries, each bounded by
# the client timeout, with backoff) before it gives up.
saved=$timeout
timeout=$((timeout + 120))
wait_re "SAVEPOINT #[0-9]+ .*(failed|FAILED)"
timeout=$saved
step "the header shows the cluster down"
wait_re "✖ sim down"
sim_faults '{}'

# --- quit --------------------------------------------------------------------
key q
wait_for "palink-exited-0"
echo "e2e: PASS"
