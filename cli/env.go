package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/palink/palink/config"
	"github.com/palink/palink/core"
	"github.com/palink/palink/core/agent"
	"github.com/palink/palink/core/api"
	"github.com/palink/palink/core/options"
	"github.com/palink/palink/model"
)

// globals are the flags every command shares.
type globals struct {
	configPath string
	dbPath     string
	cluster    string
	readOnly   bool
	output     string
	yes        bool
	logFile    string
	tokenFile  string
}

func (g *globals) register(root *cobra.Command) {
	pf := root.PersistentFlags()
	pf.StringVar(&g.configPath, "config", "", "config file (default $XDG_CONFIG_HOME/palink/config.yaml)")
	pf.StringVar(&g.dbPath, "db", "", "the store: a file, or etcd://host:2379,…/prefix (default from the config, else $XDG_DATA_HOME/palink/palink.db)")
	pf.StringVar(&g.dbPath, "store", "", "the same as --db")
	pf.StringVar(&g.cluster, "cluster", "", "cluster to work on (default: all, or the only one)")
	_ = root.RegisterFlagCompletionFunc("cluster", completeClusters(g))
	pf.BoolVar(&g.readOnly, "read-only", false, "open the store read-only and refuse every action")
	pf.StringVarP(&g.output, "output", "o", "table", "output format: table, wide, json or yaml (json and yaml: docs/output.schema.json)")
	pf.BoolVar(&g.yes, "yes", false, "do not ask for confirmation (scripts)")
	pf.StringVar(&g.tokenFile, "token-file", "", "present the token in this file (mode 0600) to the agent: act as the user the agent's agent.tokens names for it (automation)")
	pf.StringVar(&g.logFile, "log-file", "", "write logs to this file (default: none for the CLI, $XDG_STATE_HOME/palink/palink.log for the TUI)")
}

// env is an opened palink: the config and a service, either in-process
// (local, over the store) or the agent's (remote, over its socket).
type env struct {
	g      *globals
	cfg    *config.Config
	local  *core.Local   // nil when remote
	remote *agent.Client // nil when local
	svc    api.Service
	log    *slog.Logger
	close  []func()
	// opts and path are what local was opened with, for a build that
	// opens the store itself (core.BuildProjectAt).
	opts core.Options
	path string
}

// Close closes what the env opened; a second Close does nothing.
func (e *env) Close() {
	for i := len(e.close) - 1; i >= 0; i-- {
		e.close[i]()
	}
	e.close = nil
}

// refusal says why this palink may not call the API method named, from its
// declaration (nil when it may): for a step the CLI takes before the call,
// such as reading a database whose description it would add. In process
// the user owns the store and is its admin; through an agent, the role
// the agent gave this connection.
func (e *env) refusal(method string) error {
	m, ok := api.MethodOf(method)
	if !ok {
		return fmt.Errorf("no API method %s", method)
	}
	if e.remote == nil {
		return m.Refusal(model.Admin, e.g.readOnly, "", "")
	}
	info := e.remote.Info()
	return m.Refusal(info.Role, e.g.readOnly || (m.Writes && info.ReadOnly && info.Role.Allows(m.Role)), "user "+info.User, " on this agent")
}

// loadConfig reads the config file named by --config or the default path.
func (g *globals) loadConfig() (*config.Config, error) {
	path := g.configPath
	if path == "" {
		path = config.DefaultPath()
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("no config at %s: write one (see docs/configuration.md), pass --config, or try `palink demo`", path)
		}
	}
	cfg, warnings, err := config.Load(path)
	if err != nil {
		return nil, err
	}
	for _, w := range warnings {
		if w.Warning { // errors come back as err
			fmt.Fprintln(os.Stderr, w.Error())
		}
	}
	return cfg, nil
}

// openEnv loads the config, opens the store and builds the service.
func (g *globals) openEnv(ctx context.Context) (*env, error) {
	cfg, err := g.loadConfig()
	if err != nil {
		return nil, err
	}
	return g.openEnvWith(ctx, cfg)
}

// openEnvWith talks to the agent that serves the store (--db, else the
// config's) if one runs, and opens the store itself otherwise. A socket
// refused for trust is an error, never a reason to open the store.
func (g *globals) openEnvWith(ctx context.Context, cfg *config.Config) (*env, error) {
	path := g.storeOf(cfg)
	if g.tokenFile != "" {
		return g.openWithToken(ctx, cfg, path)
	}
	r, err := dialAgent(ctx, cfg, path)
	if err == nil {
		if g.readOnly {
			r.SetReadOnly()
		}
		e := &env{g: g, cfg: cfg, log: g.logger(false), remote: r, svc: r}
		e.close = append(e.close, func() { r.Close() })
		return e, nil
	}
	if !errors.Is(err, agent.ErrNoAgent) {
		return nil, err
	}
	return g.openLocal(ctx, cfg, path, false)
}

// openWithToken talks to the agent of the store at path as the user of
// --token-file's token. A token names a user to an agent only: without
// one, it is an error, never a reason to open the store as oneself.
func (g *globals) openWithToken(ctx context.Context, cfg *config.Config, path string) (*env, error) {
	tok, err := agent.ReadToken(g.tokenFile)
	if err != nil {
		return nil, err
	}
	s := agentSocket(cfg, path)
	s.Token = tok
	dctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	r, err := agent.Dial(dctx, s)
	if errors.Is(err, agent.ErrNoAgent) {
		return nil, fmt.Errorf("--token-file: a token names a user to the agent of store %s, and none runs: %w", path, err)
	}
	if err != nil {
		return nil, err
	}
	if g.readOnly {
		r.SetReadOnly()
	}
	e := &env{g: g, cfg: cfg, log: g.logger(false), remote: r, svc: r}
	e.close = append(e.close, func() { r.Close() })
	return e, nil
}

// openLocal opens the store at path itself and builds the in-process
// service. The store's agent (agent, palink agent or serve) keeps a store
// on etcd mirrored in memory: it lives long enough to repay the load, and
// its actions then cost etcd one request each.
func (g *globals) openLocal(_ context.Context, cfg *config.Config, path string, agent bool) (*env, error) {
	e := &env{g: g, cfg: cfg}
	e.log = g.logger(false)
	o := options.FromConfig(cfg)
	o.ReadOnly, o.Log = g.readOnly, e.log
	o.Etcd.Mirror = agent
	if o.ProjectCache == "" {
		// Beside a store file; a store on etcd has no place on this host.
		dir := filepath.Dir(path)
		if core.IsEtcdStore(path) {
			dir = filepath.Dir(config.DefaultStore())
		}
		o.ProjectCache = filepath.Join(dir, "projects")
	}
	svc, err := core.Open(path, o)
	if err != nil {
		return nil, err
	}
	e.close = append(e.close, func() { svc.Close() })
	e.local, e.svc, e.opts, e.path = svc, svc, o, path
	if !agent {
		e.svc = api.Guard(svc, localCaller(cfg, path, svc, g.readOnly))
	}
	return e, nil
}

// localCaller is the user of a palink that opened the store itself, as
// the guard sees them: the roles the config gives them, and their teams'.
// A store file is its owner's (no other user can open it), so they are
// its admin, as they are on their agent; on etcd, where any user with the
// cluster's credentials opens it, they are only what the config's roles
// make them — an admin while it names no admins (one person's store).
func localCaller(cfg *config.Config, path string, svc *core.Local, readOnly bool) api.Caller {
	me := core.CurrentUser()
	roles := agent.Roles{Operators: cfg.Operators, Admins: cfg.Admins}
	if !core.IsEtcdStore(path) || len(cfg.Admins) == 0 {
		roles.Self = me
	}
	return api.Caller{User: me, Role: roles.Of(me), Global: roles.Global(me), ReadOnly: readOnly,
		Where: " (this palink opened the store itself)", Tenancy: svc.Tenancy()}
}

// storeOf is the store this palink works on: --db, else the config's, as
// an absolute path, or an etcd URL in its canonical form. One store is
// one name everywhere: its agent's socket is named after it.
func (g *globals) storeOf(cfg *config.Config) string {
	path := g.dbPath
	if path == "" && cfg != nil {
		path = cfg.Store
	}
	if core.IsEtcdStore(path) {
		return core.StoreName(path)
	}
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}

// agentSocket is where the agent of the store at path answers: the
// config's socket for the config's store, else the store's default socket
// (so --db X and a config whose store is X meet at one socket).
func agentSocket(cfg *config.Config, path string) agent.AgentSocket {
	if cfg != nil && cfg.Socket != "" && agent.SameStore(core.StoreName(cfg.Store), path) {
		return agent.AgentSocket{Path: cfg.Socket, Store: path, Configured: true}
	}
	return agent.AgentSocket{Path: agent.DefaultSocket(path), Store: path}
}

// dialAgent connects to the agent that serves the store at path; the error
// wraps agent.ErrNoAgent when none runs. cfg may be nil (no config file).
func dialAgent(ctx context.Context, cfg *config.Config, path string) (*agent.Client, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	return agent.Dial(ctx, agentSocket(cfg, path))
}

// logger writes to --log-file, or discards.
func (g *globals) logger(tui bool) *slog.Logger {
	path := g.logFile
	if path == "" && tui {
		dir := os.Getenv("XDG_STATE_HOME")
		if dir == "" {
			home, _ := os.UserHomeDir()
			dir = filepath.Join(home, ".local", "state")
		}
		path = filepath.Join(dir, "palink", "palink.log")
	}
	if path == "" {
		return slog.New(slog.DiscardHandler)
	}
	_ = os.MkdirAll(filepath.Dir(path), 0o700)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return slog.New(slog.DiscardHandler)
	}
	return slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: logLevel()}))
}

// logLevel is $PALINK_LOG_LEVEL (debug, info, warn, error), info by
// default: debug adds a line per sync cycle (jobs, changes, requests, how
// long it took), which `make scale` reads.
func logLevel() slog.Level {
	var l slog.Level
	if err := l.UnmarshalText([]byte(os.Getenv("PALINK_LOG_LEVEL"))); err != nil {
		return slog.LevelInfo
	}
	return l
}

// withEnv runs fn with an opened palink, cancelled on SIGINT/SIGTERM, and
// closes it afterwards: the frame of every CLI command that reads or acts.
func (g *globals) withEnv(cmd *cobra.Command, fn func(ctx context.Context, e *env) error) error {
	ctx, cancel := signalContext(cmd.Context())
	defer cancel()
	e, err := g.openEnv(ctx)
	if err != nil {
		return err
	}
	defer e.Close()
	return fn(ctx, e)
}
