// Package sandbox runs the commands palink runs but does not write — a
// project's build command, a secret variable's command — so that they
// never get what palink has:
//
//   - an environment built from nothing (PATH, HOME and TMPDIR in a
//     directory of their own, LANG, and what the caller declares), never
//     palink's own, which holds cluster passwords and tokens;
//   - where palink runs as root, the configured unprivileged user
//     (build.user); as root without one, they are refused;
//   - where configured (build.sandbox: bwrap), bubblewrap, in which the
//     command's own directory is the only path it may write.
//
// Builds and secret commands share this one Policy, so the two cannot
// drift apart. Each command runs in a process group of its own that is
// killed whole when its context ends (Group), which git, trusted but
// talking to servers that may never answer, uses too.
//
// It imports nothing of palink's.
package sandbox
