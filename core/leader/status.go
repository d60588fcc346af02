package leader

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/palink/palink/store"
)

// Status is who leads a store on etcd, and who campaigns.
type Status struct {
	// Leader is the member that leads, nil when none does (the election
	// is empty: no palink campaigns, or the last leader's lease is running
	// out).
	Leader *Member
	// Term is the leader's election key's create revision.
	Term int64
	// Members are the palinks that campaign, the leader among them,
	// oldest first.
	Members []Member
}

// Read reads the election and the members of the store whose key prefix
// is prefix, in one revision.
func Read(ctx context.Context, cli *clientv3.Client, prefix string) (Status, error) {
	resp, err := cli.Txn(ctx).Then(
		clientv3.OpGet(prefix+"election/", clientv3.WithFirstCreate()...),
		clientv3.OpGet(prefix+"members/", clientv3.WithPrefix()),
	).Commit()
	if err != nil {
		return Status{}, fmt.Errorf("read the election: %w", err)
	}
	var st Status
	if kvs := resp.Responses[0].GetResponseRange().GetKvs(); len(kvs) > 0 {
		var m Member
		if err := json.Unmarshal(kvs[0].Value, &m); err != nil {
			return Status{}, fmt.Errorf("read the election: the leader's key %s holds %q: %w", kvs[0].Key, kvs[0].Value, err)
		}
		m.Lease = strings.TrimPrefix(string(kvs[0].Key), prefix+"election/")
		st.Leader, st.Term = &m, kvs[0].CreateRevision
	}
	for _, kv := range resp.Responses[1].GetResponseRange().GetKvs() {
		var m Member
		if err := json.Unmarshal(kv.Value, &m); err != nil {
			continue // not one of palink's records: left out
		}
		m.Lease = strings.TrimPrefix(string(kv.Key), prefix+"members/")
		if st.Leader != nil && m.Lease == st.Leader.Lease && m.Since.IsZero() {
			m.Since = st.Leader.Since
		}
		st.Members = append(st.Members, m)
	}
	sort.SliceStable(st.Members, func(i, k int) bool {
		a, b := st.Members[i], st.Members[k]
		if !a.Started.Equal(b.Started) {
			return a.Started.Before(b.Started)
		}
		return a.ID < b.ID
	})
	return st, nil
}

// Store is e with every Update fenced by the term (store.Etcd.Fenced): a
// write refused for the fence ends the term (Refused), so that its parts
// stop acting at their next write at the latest.
func (t *Term) Store(e *store.Etcd) store.Store {
	return &fencedStore{Store: e.Fenced(t.Fence()), t: t}
}

// Fence is what every write of the term holds to: its election key, as
// created when it won.
func (t *Term) Fence() store.Fence { return store.Fence{Key: t.key, CreateRevision: t.rev} }

type fencedStore struct {
	store.Store
	t *Term
}

// Update runs fn as the store does, and ends the term on a refusal.
func (f *fencedStore) Update(ctx context.Context, fn func(store.Tx) error) error {
	err := f.Store.Update(ctx, fn)
	if errors.Is(err, store.ErrFenced) {
		f.t.Refused(err)
	}
	return err
}

// Close leaves the store open: it belongs to whoever opened it.
func (f *fencedStore) Close() error { return nil }
