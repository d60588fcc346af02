// Package clusters is palink's connection to each configured cluster: the
// YARN ResourceManager client (with HA), the SQL Gateway client, JobManager
// clients per application (reads through the RM proxy or direct, actions
// always direct), the cluster's connectivity as last observed, and the
// YARN tags that say which store, job and command submitted an application.
//
// It holds clients and tag rules, no decisions: the scheduler, the syncer,
// the observer and the log reader take the clusters they need from here.
package clusters
