// Package sim is a simulated YARN + Flink + SQL Gateway cluster that speaks
// the real REST APIs, with fault injection and a deterministic mode. It powers
// `palink demo`, `palink sim` and the tests. Its JSON follows the official
// specs in ../shared/reference, which its contract tests check.
package sim
