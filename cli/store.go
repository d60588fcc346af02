package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/palink/palink/core"
	"github.com/palink/palink/core/agent"
	"github.com/palink/palink/core/api"
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
			// Without a config file, --db names the store.
			cfg, cerr := g.loadConfig()
			if cerr != nil && g.dbPath == "" {
				return cerr
			}
			path := g.storeOf(cfg)
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
				backup = func(w io.Writer) (int64, error) { return core.BackupStore(ctx, path, w) }
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
	}, newStoreCheckCmd(g), &cobra.Command{
		Use:   "restore FILE",
		Short: "Replace the store with a backup (palink must not be running)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path, err := g.storePath()
			if err != nil {
				return err
			}
			if err := core.RestoreStore(args[0], path); err != nil {
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
			cfg, cerr := g.loadConfig()
			if cerr != nil && g.dbPath == "" {
				return cerr
			}
			path := g.storeOf(cfg)
			file, via := path, ""
			r, err := dialAgent(ctx, cfg, path)
			switch {
			case err == nil:
				defer r.Close()
				via = " (a snapshot taken through the agent)"
				if file, err = snapshot(ctx, r); err != nil {
					return fmt.Errorf("check store %s: take a snapshot through the agent: %w", path, err)
				}
				defer os.Remove(file)
			case !errors.Is(err, agent.ErrNoAgent):
				return err
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

// snapshot copies the agent's store into a new private temporary file.
func snapshot(ctx context.Context, r *agent.Client) (string, error) {
	f, err := os.CreateTemp("", "palink-check-*.db")
	if err != nil {
		return "", err
	}
	_, err = r.Backup(ctx, f)
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

// storePath is --db, else the config's store (storeOf, without a config
// file when --db is given).
func (g *globals) storePath() (string, error) {
	if g.dbPath != "" {
		return g.storeOf(nil), nil
	}
	cfg, err := g.loadConfig()
	if err != nil {
		return "", err
	}
	return g.storeOf(cfg), nil
}
