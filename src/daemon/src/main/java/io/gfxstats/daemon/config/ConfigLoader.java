package io.gfxstats.daemon.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;

/**
 * Layers the settings: embedded defaults, then the config file, then command-line overrides; then
 * resolves {@code ${state.dir}} and {@code ~/}, parses, and builds. Every error says where the
 * offending value came from and names its key.
 */
final class ConfigLoader {
    static final String STATE_DIR_VARIABLE = "${state.dir}";

    private enum Origin { DEFAULT, FILE, COMMAND_LINE }

    private record Raw(String value, Origin origin, String where) {
    }

    private ConfigLoader() {
    }

    static DaemonConfig load(DaemonArgs args, ConfigEnvironment env) {
        Map<Setting<?>, Raw> raw = new HashMap<>();
        for (Setting<?> s : Setting.all()) {
            raw.put(s, new Raw(s.defaultValue(), Origin.DEFAULT, "default"));
        }
        if (args.configFile().isPresent()) {
            Path file = env.workingDirectory().resolve(args.configFile().get()).normalize();
            String where = "config file " + file;
            Properties props = read(file);
            for (String key : new TreeSet<>(props.stringPropertyNames())) {
                Setting<?> s = Setting.byKey(key).orElseThrow(() -> Setting.unknown(key).in(where));
                raw.put(s, new Raw(props.getProperty(key).trim(), Origin.FILE, where));
            }
        }
        for (DaemonArgs.Override o : args.overrides()) {
            raw.put(o.setting(), new Raw(o.value(), Origin.COMMAND_LINE, o.option()));
        }

        DaemonConfig.Builder builder = DaemonConfig.builder();
        Raw stateRaw = raw.get(Setting.STATE_DIR);
        Path stateDir;
        try {
            stateDir = stateRaw.value().trim().isEmpty()
                    ? env.defaultStateDir()
                    : path(Setting.STATE_DIR, stateRaw, null, env);
        } catch (ConfigException e) {
            throw e.in(stateRaw.where());
        }
        builder.stateDir(stateDir);
        for (Setting<?> s : Setting.all()) {
            if (s == Setting.STATE_DIR) {
                continue;
            }
            Raw r = raw.get(s);
            try {
                if (s.isPath()) {
                    setPath(builder, s, path(s, r, stateDir, env));
                } else {
                    setParsed(builder, s, r.value());
                }
            } catch (ConfigException e) {
                throw e.in(r.where());
            }
        }
        try {
            return builder.build();
        } catch (ConfigException e) {
            Raw r = Setting.byKey(e.key()).map(raw::get).orElse(null);
            throw r == null || r.origin() == Origin.DEFAULT ? e : e.in(r.where());
        }
    }

    private static <T> void setParsed(DaemonConfig.Builder builder, Setting<T> s, String value) {
        builder.set(s, s.parse(value));
    }

    @SuppressWarnings("unchecked")
    private static void setPath(DaemonConfig.Builder builder, Setting<?> s, Path path) {
        builder.set((Setting<Path>) s, path);
    }

    private static Properties read(Path file) {
        String what = "--config " + file;
        if (Files.isDirectory(file)) {
            throw new ConfigException("--config", what + ": is a directory, not a properties file");
        }
        Properties props = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            props.load(in);
        } catch (NoSuchFileException e) {
            throw new ConfigException("--config", what + ": no such file");
        } catch (AccessDeniedException e) {
            throw new ConfigException("--config", what + ": permission denied");
        } catch (MalformedInputException e) {
            throw new ConfigException("--config", what + ": not valid UTF-8 text");
        } catch (IOException e) {
            throw new ConfigException("--config", what + ": cannot be read: " + e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw new ConfigException("--config", what + ": malformed properties file: " + e.getMessage(), e);
        }
        return props;
    }

    /**
     * A path setting's value as an absolute path, or null when an optional path is empty.
     * {@code ${state.dir}} and a leading {@code ~/} are expanded; a relative path is resolved
     * against the working directory on the command line and refused in a file (whose readers
     * could not guess what it is relative to).
     */
    private static Path path(Setting<?> s, Raw r, Path stateDir, ConfigEnvironment env) {
        String v = r.value().trim();
        try {
            if (v.contains("${")) {
                if (stateDir == null) {
                    throw new ConfigException(s.key(), s.key() + ": '" + v + "' cannot refer to variables");
                }
                v = v.replace(STATE_DIR_VARIABLE, stateDir.toString());
                if (v.contains("${")) {
                    throw new ConfigException(s.key(), s.key() + ": '" + r.value().trim()
                            + "' uses an unknown variable; only " + STATE_DIR_VARIABLE + " exists");
                }
            }
            if (v.isEmpty()) {
                if (s.kind() == Setting.Kind.PATH_OR_EMPTY) {
                    return null;
                }
                throw new ConfigException(s.key(), s.key() + ": must not be empty (default: " + s.defaultValue() + ")");
            }
            if (v.indexOf('\0') >= 0) {
                throw new ConfigException(s.key(), s.key() + ": contains a NUL character");
            }
            if (v.equals("~")) {
                return env.home();
            }
            if (v.startsWith("~/")) {
                return env.home().resolve(v.substring(2)).normalize();
            }
            Path p = Path.of(v);
            if (!p.isAbsolute()) {
                if (r.origin() != Origin.COMMAND_LINE) {
                    throw new ConfigException(s.key(), s.key() + ": '" + v + "' is a relative path; use an absolute "
                            + "path, ~/... or " + STATE_DIR_VARIABLE + "/...");
                }
                p = env.workingDirectory().resolve(p);
            }
            return p.normalize();
        } catch (InvalidPathException e) {
            throw new ConfigException(s.key(), s.key() + ": '" + v + "' is not a valid path: " + e.getReason(), e);
        }
    }
}
