package model

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Team is a tenant of palink: it owns clusters, or queues of them, and
// thereby the jobs that run there; each member has a role in it
// (docs/ssh.md). A palink without teams gives every user one role on
// everything, from its config.
type Team struct {
	Name string
	// Owns is what the team owns: a whole cluster (Queue empty) or one
	// YARN queue of a cluster.
	Owns []Holding
	// Members are the users with a role in the team, by user.
	Members   []Member
	CreatedAt time.Time
	CreatedBy string
}

// Holding is a cluster, or one queue of it, that a team owns.
type Holding struct {
	Cluster string
	// Queue is a YARN queue's leaf name ("prod" of root.streaming.prod);
	// empty for the whole cluster.
	Queue string `json:",omitempty"`
}

func (h Holding) String() string {
	if h.Queue == "" {
		return "cluster " + h.Cluster
	}
	return "queue " + h.Queue + " of cluster " + h.Cluster
}

// Member is a user's role in a team.
type Member struct {
	User      string
	Role      Role
	GrantedBy string
	GrantedAt time.Time
}

// RoleOf is user's role in the team; NoRole when they are no member.
func (t Team) RoleOf(user string) Role {
	for _, m := range t.Members {
		if m.User == user {
			return m.Role
		}
	}
	return NoRole
}

// ValidTeamName reports whether name can name a team: letters, digits,
// '-', '_' and '.', at most 64, starting with a letter or digit, so that
// it reads the same in a command line, a refusal and the store's keys.
func ValidTeamName(name string) bool {
	if name == "" || len(name) > 64 {
		return false
	}
	for i, r := range name {
		switch {
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9':
		case i > 0 && (r == '-' || r == '_' || r == '.'):
		default:
			return false
		}
	}
	return true
}

// ValidUserName reports whether name can name a user of palink: an OS
// login, an SSH key's user or a token's, without spaces or control
// characters, at most 64.
func ValidUserName(name string) bool {
	if name == "" || len(name) > 64 || strings.HasPrefix(name, "-") {
		return false
	}
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9':
		case strings.ContainsRune("-_.@:", r):
		default:
			return false
		}
	}
	return true
}

// QueueLeaf is a YARN queue's leaf name: YARN's capacity scheduler names a
// leaf queue uniquely by it, and applications report either form.
func QueueLeaf(q string) string {
	if i := strings.LastIndexByte(q, '.'); i >= 0 {
		return q[i+1:]
	}
	return q
}

// OwnerOf is the team that owns what runs in queue of cluster: the team
// that holds that queue, else the team that holds the whole cluster, else
// none (""). A queue is more precise than its cluster, as in YARN, where
// a queue's ACL narrows the cluster's.
func OwnerOf(teams []Team, cluster, queue string) string {
	queue = QueueLeaf(queue)
	whole := ""
	for _, t := range teams {
		for _, h := range t.Owns {
			switch {
			case h.Cluster != cluster:
			case h.Queue != "" && QueueLeaf(h.Queue) == queue:
				return t.Name
			case h.Queue == "" && whole == "":
				whole = t.Name
			}
		}
	}
	return whole
}

// ClusterOwners are the teams that own cluster or any queue of it, by name.
func ClusterOwners(teams []Team, cluster string) []string {
	var out []string
	for _, t := range teams {
		if slices.ContainsFunc(t.Owns, func(h Holding) bool { return h.Cluster == cluster }) {
			out = append(out, t.Name)
		}
	}
	slices.Sort(out)
	return out
}

// CheckHoldings refuses a holding that another team holds already: one
// cluster or one queue has one owner.
func CheckHoldings(teams []Team, team string, add []Holding) error {
	for _, h := range add {
		for _, t := range teams {
			if t.Name == team {
				continue
			}
			for _, o := range t.Owns {
				if o.Cluster == h.Cluster && QueueLeaf(o.Queue) == QueueLeaf(h.Queue) {
					return fmt.Errorf("%s belongs to team %s already: %w", h, t.Name, ErrExists)
				}
			}
		}
	}
	return nil
}

// QueueProperty is the Flink property that names a job's YARN queue.
const QueueProperty = "yarn.application.queue"

// JobQueue is the YARN queue a job runs in, as palink's deployers submit
// it: the queue its cluster fixes for every job (deploy.queue), else the
// job's own yarn.application.queue, else YARN's "default".
func JobQueue(clusterQueue string, config map[string]string) string {
	switch {
	case clusterQueue != "":
		return QueueLeaf(clusterQueue)
	case config[QueueProperty] != "":
		return QueueLeaf(config[QueueProperty])
	}
	return "default"
}
