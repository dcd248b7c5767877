package io.crater.cli;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.representer.Representer;

/**
 * The client's configuration, {@code $XDG_CONFIG_HOME/crater/config.yaml} (else {@code ~/.config/crater}): the
 * servers signed in to ("contexts"), each with its token and chosen account, and the current one. Written with
 * mode 600 through a temporary file, so a token is never readable by others, not even for a moment.
 */
public final class Config {

    /** One server signed in to. */
    public record Context(String name, String server, String user, String token, Long tokenId, String account) {

        Context withAccount(String slug) {
            return new Context(name, server, user, token, tokenId, slug);
        }

        Map<String, Object> toYaml() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", name);
            m.put("server", server);
            put(m, "user", user);
            put(m, "token", token);
            put(m, "token-id", tokenId);
            put(m, "account", account);
            return m;
        }

        static Context fromYaml(Map<?, ?> m) {
            Object id = m.get("token-id");
            return new Context(
                    str(m.get("name")),
                    str(m.get("server")),
                    str(m.get("user")),
                    str(m.get("token")),
                    id instanceof Number n ? n.longValue() : null,
                    str(m.get("account")));
        }
    }

    private final Path file;
    private String current;
    private final List<Context> contexts = new ArrayList<>();

    private Config(Path file) {
        this.file = file;
    }

    /** The file this terminal's environment points at: CRATER_CONFIG, else the XDG location. */
    public static Path defaultFile(Terminal term) {
        String explicit = term.env("CRATER_CONFIG");
        if (explicit != null) {
            return Path.of(explicit);
        }
        String xdg = term.env("XDG_CONFIG_HOME");
        Path base = xdg != null ? Path.of(xdg) : Path.of(home(term), ".config");
        return base.resolve("crater").resolve("config.yaml");
    }

    static String home(Terminal term) {
        String home = term.env("HOME");
        return home != null ? home : System.getProperty("user.home");
    }

    /** Reads the file; a missing one is an empty configuration. */
    public static Config load(Path file) {
        Config c = new Config(file);
        if (!Files.exists(file)) {
            return c;
        }
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            Object root = new Yaml(new SafeConstructor(new LoaderOptions())).load(r);
            if (root instanceof Map<?, ?> m) {
                c.current = str(m.get("current-context"));
                if (m.get("contexts") instanceof List<?> list) {
                    for (Object o : list) {
                        if (o instanceof Map<?, ?> ctx && ctx.get("name") != null && ctx.get("server") != null) {
                            c.contexts.add(Context.fromYaml(ctx));
                        }
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            throw new CliException(Exit.ERROR, "cannot read " + file + ": " + e.getMessage());
        }
        return c;
    }

    public Path file() {
        return file;
    }

    public List<Context> contexts() {
        return List.copyOf(contexts);
    }

    public String currentName() {
        return current;
    }

    /** The named context, or the current one when {@code name} is null; null when there is none. */
    public Context context(String name) {
        String wanted = name != null ? name : current;
        return contexts.stream()
                .filter(c -> c.name().equals(wanted))
                .findFirst()
                .orElse(null);
    }

    /** Adds or replaces a context by name, and makes it current. */
    public void put(Context ctx) {
        contexts.removeIf(c -> c.name().equals(ctx.name()));
        contexts.add(ctx);
        current = ctx.name();
    }

    /** Replaces a context by name, leaving the current one as it is. */
    public void update(Context ctx) {
        for (int i = 0; i < contexts.size(); i++) {
            if (contexts.get(i).name().equals(ctx.name())) {
                contexts.set(i, ctx);
                return;
            }
        }
        contexts.add(ctx);
    }

    public boolean remove(String name) {
        boolean removed = contexts.removeIf(c -> c.name().equals(name));
        if (name.equals(current)) {
            current = contexts.isEmpty() ? null : contexts.get(0).name();
        }
        return removed;
    }

    public void use(String name) {
        if (context(name) == null) {
            throw new CliException(Exit.NOT_FOUND, "no context " + name);
        }
        current = name;
    }

    /** Writes the file, mode 600, replacing the old one atomically. */
    public void save() {
        Map<String, Object> root = new LinkedHashMap<>();
        put(root, "current-context", current);
        root.put("contexts", contexts.stream().map(Context::toYaml).toList());
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        Yaml yaml = new Yaml(new Representer(options), options);
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.deleteIfExists(tmp);
            if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
                Files.createFile(
                        tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } else {
                Files.createFile(tmp);
            }
            try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                w.write("# Crater client configuration: written by `crater login`; holds tokens, keep it private.\n");
                yaml.dump(root, w);
            }
            try {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new CliException(Exit.ERROR, "cannot write " + file + ": " + e.getMessage());
        }
    }

    private static void put(Map<String, Object> m, String key, Object value) {
        if (value != null) {
            m.put(key, value);
        }
    }

    private static String str(Object o) {
        return o == null ? null : o.toString();
    }
}
