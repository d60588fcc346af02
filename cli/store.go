package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/palink/palink/config"
	"github.com/palink/palink/core"
	"github.com/palink/palink/core/agent"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/options"
	"github.com/spf13/cobra"
)

func newStoreCmd(g *globals) *cobra.Command {
	cmd := &cobra.Command{Use: "store", Short: "Back up, check and restore palink's store"}
	cmd.AddCommand(&cobra.Command{
		Use:   "backup FILE",
		Short: "Write a consistent copy of the store to FILE while palink keeps running",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, cancel := signalContext(cmd.Context())
			defer cancel()
			path, cfg, opts, err := g.storeWith()
			if err != nil {
				return err
			}
			// The palink that owns the store (an agent, or a TUI) takes the
			// backup while it keeps working; otherwise open it read-only.
			var backup func(io.Writer) (int64, error)
			r, err := dialAgent(ctx, cfg, path)
			switch {
			case err == nil:
				defer r.Close()
				backup = func(w io.Writer) (int64, error) { return r.Backup(ctx, w) }
			case !errors.Is(err, agent.ErrNoAgent):
				return err
			default:
				backup = func(w io.Writer) (int64, error) { return core.BackupStore(ctx, path, opts, w) }
			}
			if _, err := os.Lstat(args[0]); err == nil {
				return fmt.Errorf("backup %s: %s exists", path, args[0])
			}
			// The file is made at the first byte of the backup, so that a
			// refused one leaves nothing behind.
			f := &newFile{path: args[0]}
			n, err := backup(f)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				f.Remove()
				return fmt.Errorf("backup %s: %w", path, err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "backed up %s to %s (%d bytes)\n", path, args[0], n)
			return nil
		},
	}, newStoreCheckCmd(g), newStoreMigrateCmd(g), newStoreCompactCmd(g), &cobra.Command{
		Use:   "restore FILE",
		Short: "Replace the store with a backup (palink must not be running)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path, _, opts, err := g.storeWith()
			if err != nil {
				return err
			}
			if err := core.RestoreStore(args[0], path, opts); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "restored %s from %s\n", path, args[0])
			return nil
		},
	})
	return cmd
}

func newStoreCheckCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "check",
		Short: "Check the store: bbolt's pages, then every record and index; exit 1 if it is damaged",
		Long: "Check the store file: that it is whole, that bbolt finds every page reachable or free\n" +
			"(and none both), and that every record decodes and every index agrees with its records.\n" +
			"It opens the store read-only; when an agent owns the store, it checks a snapshot taken\n" +
			"through the agent, as `palink store backup` does.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, cancel := signalContext(cmd.Context())
			defer cancel()
			path, cfg, opts, err := g.storeWith()
			if err != nil {
				return err
			}
			file, via := path, ""
			r, err := dialAgent(ctx, cfg, path)
			switch {
			case err == nil:
				defer r.Close()
				via = " (a snapshot taken through the agent)"
				if file, err = snapshot(ctx, r.Backup); err != nil {
					return fmt.Errorf("check store %s: take a snapshot through the agent: %w", path, err)
				}
				defer os.Remove(file)
			case !errors.Is(err, agent.ErrNoAgent):
				return err
			case core.IsEtcdStore(path):
				// The file check, on a copy of one revision of the store.
				via = " (a snapshot of the store on etcd)"
				backup := func(ctx context.Context, w io.Writer) (int64, error) { return core.BackupStore(ctx, path, opts, w) }
				if file, err = snapshot(ctx, backup); err != nil {
					return fmt.Errorf("check store %s: %w", path, err)
				}
				defer os.Remove(file)
			}
			rep, damaged := core.CheckStore(ctx, file, path)
			if damaged != nil && rep.Path == "" {
				return damaged // the file could not be read at all
			}
			w := cmd.OutOrStdout()
			if g.structured() {
				if err := writeData(w, g.output, rep); err != nil {
					return err
				}
			} else {
				printReport(w, rep, via)
			}
			if damaged != nil {
				return exitError{code: 1, msg: damaged.Error()}
			}
			return nil
		},
	}
}

func printReport(w io.Writer, rep api.StoreReport, via string) {
	if len(rep.Problems) > 0 {
		fmt.Fprintf(w, "%s%s: %s:\n", rep.Path, via, plural(len(rep.Problems), "problem"))
		for _, p := range rep.Problems {
			fmt.Fprintf(w, "  %s\n", p)
		}
		return
	}
	id := rep.ID
	if id == "" {
		id = "none"
	}
	fmt.Fprintf(w, "%s%s: ok: schema %d, store id %s, %s, %s, %d bytes\n", rep.Path, via, rep.Schema, id,
		plural(rep.Jobs, "job"), plural(rep.Commands, "command"), rep.Size)
	if rep.Schema < rep.Current {
		fmt.Fprintf(w, "records and indexes are checked at schema %d only: open the store once without --read-only to upgrade it, then check again\n",
			rep.Current)
	}
}

// snapshot copies a store (through the agent's Backup, or the store's
// own) into a new private temporary file.
func snapshot(ctx context.Context, backup func(context.Context, io.Writer) (int64, error)) (string, error) {
	f, err := os.CreateTemp("", "palink-check-*.db")
	if err != nil {
		return "", err
	}
	_, err = backup(ctx, f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// newFile is a file (0600) made at its first write; an existing file is an
// error then.
type newFile struct {
	path string
	f    *os.File
}

func (w *newFile) Write(b []byte) (int, error) {
	if w.f == nil {
		f, err := os.OpenFile(w.path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err != nil {
			return 0, err
		}
		w.f = f
	}
	return w.f.Write(b)
}

// Close closes the file, if it was made.
func (w *newFile) Close() error {
	if w.f == nil {
		return nil
	}
	return w.f.Close()
}

// Remove removes the file, if it was made.
func (w *newFile) Remove() {
	if w.f != nil {
		os.Remove(w.path)
	}
}

// storeWith is the store this palink works on (storeOf) with what opens
// it: the config, which only --db makes optional (nil without one), and
// core's options from it (how to reach a store on etcd).
func (g *globals) storeWith() (string, *config.Config, core.Options, error) {
	cfg, err := g.loadConfig()
	if err != nil {
		if g.dbPath == "" {
			return "", nil, core.Options{}, err
		}
		cfg = nil
	}
	return g.storeOf(cfg), cfg, storeOptions(cfg), nil
}

// storeOptions are core's options from the config, for opening a store
// (the zero options without a config).
func storeOptions(cfg *config.Config) core.Options {
	if cfg == nil {
		return core.Options{}
	}
	return options.FromConfig(cfg)
}

func newStoreCompactCmd(g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "compact",
		Short: "Forget checkpoints Flink deleted and shrink the store file (palink must not be running)",
		Long: "Forgets, in every job, the checkpoint records Flink no longer keeps: all but the newest\n" +
			"checkpoints_retained of its cluster (default 1, Flink's num-retained), the job's latest\n" +
			"checkpoint and the one its run restored from; savepoints stay. A store file is then\n" +
			"copied into a new one put in its place, since bbolt never gives freed pages back; it\n" +
			"reports the size before and after. No palink may have the file open (stop the agent).\n" +
			"A store on etcd is pruned; etcd frees the space at its own compaction.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, cancel := signalContext(cmd.Context())
			defer cancel()
			path, _, opts, err := g.storeWith()
			if err != nil {
				return err
			}
			rep, err := core.CompactStore(ctx, path, opts)
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if rep.Before > 0 {
				fmt.Fprintf(w, "compacted %s: forgot %s; %d → %d bytes (%.0f%%)\n", path, plural(rep.Pruned, "checkpoint record"),
					rep.Before, rep.After, 100*float64(rep.After)/float64(rep.Before))
				return nil
			}
			fmt.Fprintf(w, "compacted %s: forgot %s\n", path, plural(rep.Pruned, "checkpoint record"))
			return nil
		},
	}
}

func newStoreMigrateCmd(g *globals) *cobra.Command {
	var from, to string
	var force bool
	cmd := &cobra.Command{
		Use:   "migrate --to etcd://HOST:2379,…/PREFIX | --from etcd://… --to FILE",
		Short: "Copy the store into etcd, or back into a file, and compare every record",
		Long: "Copies one snapshot of a store — the configured one, or --from — into --to: a store\n" +
			"file into etcd (etcd://host1:2379,host2:2379/palink, reached with the config's etcd:\n" +
			"options), or a store on etcd into a file. Then it reads both back and compares every\n" +
			"record, index entry and sequence, byte for byte; the copy keeps the store's id, so YARN\n" +
			"applications palink started stay its own. Stop every palink that writes the source\n" +
			"first (a store file in use is refused; on etcd, what agents write after the snapshot's\n" +
			"revision is not copied). A destination that holds a store is refused unless --force,\n" +
			"which replaces it. Then point store: in the config at the destination.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, cancel := signalContext(cmd.Context())
			defer cancel()
			path, _, opts, err := g.storeWith()
			if err != nil {
				return err
			}
			src := path
			if from != "" {
				src = absStore(from)
			}
			rep, err := core.MigrateStore(ctx, src, absStore(to), opts, force)
			if err != nil {
				return err
			}
			at := ""
			if rep.Revision > 0 {
				at = fmt.Sprintf(" at etcd revision %d", rep.Revision)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "copied %s%s to %s: %s and %s, compared: the same\n",
				rep.From, at, rep.To, plural(rep.Records, "record"), plural(rep.Sequences, "sequence"))
			return nil
		},
	}
	cmd.Flags().StringVar(&from, "from", "", "the store to copy (default: the configured store, or --db)")
	cmd.Flags().StringVar(&to, "to", "", "where to copy it: etcd://host:2379,…/prefix, or a file")
	cmd.Flags().BoolVar(&force, "force", false, "replace a store that is at --to")
	_ = cmd.MarkFlagRequired("to")
	return cmd
}

// absStore is a store's name as storeOf gives it: an etcd URL in its
// canonical form, a file's path made absolute.
func absStore(name string) string {
	if core.IsEtcdStore(name) {
		return core.StoreName(name)
	}
	if abs, err := filepath.Abs(name); err == nil {
		return abs
	}
	return name
}
