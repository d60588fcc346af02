package core

import (
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/localrun"
)

// Importer proposes catalog tables' DDL from a database table or a Kafka
// topic (core/localrun), in this process: the database and the brokers
// are the caller's to reach, even when the service is an agent's. A debug
// run's Debugger comes from the config (core/options.Debugger).
func Importer() api.Importer { return localrun.Importer{} }
