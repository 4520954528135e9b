package main

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/rlspec/rlspec/racehunt"
	"github.com/rlspec/rlspec/redact"
)

// raceFailKey names the target for rapid's fail files: the image or the
// URL the user gave (an image's published ports change every run), or the
// embedded reference with its fault.
func raceFailKey(cfg raceConfig, tgt racehunt.Target) string {
	switch {
	case cfg.Image != "":
		return fmt.Sprintf("image %s fault %s replicas %d", cfg.Image, cfg.Fault, cfg.Replicas)
	case cfg.Target.URL != "":
		return "url " + redact.URL(cfg.Target.Endpoint(cfg.Target.URL))
	case len(cfg.URLs) > 0:
		var us []string
		for _, u := range cfg.URLs {
			us = append(us, redact.URL(u))
		}
		return "urls " + strings.Join(us, ",") + " " + cfg.Target.Path
	}
	return tgt.Describe()
}

// replayCommand is the one command that replays seed with the same settings.
func replayCommand(cfg raceConfig, seed uint64) string {
	vars := map[string]string{}
	for k, v := range cfg.set {
		vars[k] = v
	}
	delete(vars, "CHECKS")
	vars["SEED"] = strconv.FormatUint(seed, 10)
	vars["REPEAT"] = strconv.Itoa(cfg.Repeat)
	keys := make([]string, 0, len(vars))
	for k := range vars {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := []string{"make race"}
	for _, k := range keys {
		switch v := vars[k]; {
		case k == "TARGET_HEADERS":
			// Credentials stay out: their values are references to variables.
			parts = append(parts, k+"="+redact.Headers(cfg.Target.Headers))
			continue
		case (k == "TARGET_URL" || k == "TARGET_URL_DISABLED") && redact.URL(v) != v:
			parts = append(parts, k+"="+redact.CurlURL(v))
			continue
		case k == "TARGET_URLS":
			us := strings.Split(v, ",")
			for i, u := range us {
				us[i] = redact.URL(strings.TrimSpace(u))
			}
			vars[k] = strings.Join(us, ",")
		case k == "TARGET_DB":
			vars[k] = redact.DSN(v)
		}
		parts = append(parts, k+"="+shellWord(vars[k]))
	}
	return strings.Join(parts, " ")
}

func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=,@%+") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// replayVars are the settings a replay command carries when given.
var replayVars = map[string]string{
	"target-url": "TARGET_URL", "target-image": "TARGET_IMAGE", "target-path": "TARGET_PATH",
	"target-headers": "TARGET_HEADERS", "body-template": "BODY_TEMPLATE", "rl-limit": "RL_LIMIT",
	"rl-window": "RL_WINDOW", "client-ips": "CLIENT_IPS", "max-wait": "MAX_WAIT",
	"target-db": "TARGET_DB", "target-sql": "TARGET_SQL", "replicas": "REPLICAS", "target-urls": "TARGET_URLS", "fault": "FAULT", "store": "STORE", "checks": "CHECKS", "shrink-time": "SHRINK_TIME",
	"profile": "PROFILE", "key": "KEY", "key-format": "KEY_FORMAT", "target-method": "TARGET_METHOD", "window-align": "WINDOW_ALIGN",
	"dialect": "DIALECT", "limited-body": "LIMITED_BODY", "rl-burst": "RL_BURST", "rl-rate": "RL_RATE",
	"features": "FEATURES", "rl-penalties": "RL_PENALTIES",
}
