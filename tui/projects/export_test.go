package projects

// TickMsg is the build view's poll, for tests to fire.
var TickMsg = buildTickMsg{}
