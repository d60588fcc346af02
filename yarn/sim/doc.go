// Package sim is a simulated YARN + Flink + SQL Gateway cluster that speaks
// the real REST APIs, with fault injection and a deterministic mode. It powers
// `palink demo`, `palink sim` and the tests. Its JSON follows the official
// specs in ../shared/reference, which its contract tests check.
//
// What listens:
//   - one or more ResourceManagers (RM REST API under /ws/v1/cluster, the web
//     proxy under /proxy/<appId>/, and the simulator's own admin API under
//     /sim/, which is not YARN);
//   - one Flink JobManager REST server per running application, on its own
//     port, which is the application's amRPCAddress;
//   - one Flink SQL Gateway.
//
// Time is simulated (Options.Speed, or any Clock): every state is a function
// of the clock, evaluated lazily when read and by one scheduler goroutine,
// so ten thousand applications cost no goroutine each.
//
// It must not import palink's HTTP clients (package yarn): it is what they
// are tested against, so it is written from the specs alone.
package sim
