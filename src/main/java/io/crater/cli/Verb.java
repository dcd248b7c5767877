package io.crater.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A leaf command. It reaches the root's global options (server, account, output, …), the API of the current
 * context, the terminal and the messages; {@link #execute()} returns the exit code.
 */
public abstract class Verb implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    private Api api;

    protected abstract int execute();

    @Override
    public final Integer call() {
        return execute();
    }

    protected CraterCli root() {
        return (CraterCli) spec.root().userObject();
    }

    protected Terminal term() {
        return root().terminal();
    }

    protected Messages msg() {
        return root().messages();
    }

    protected Output output() {
        return root().output();
    }

    protected java.io.PrintStream out() {
        return term().out();
    }

    protected java.io.PrintStream err() {
        return term().err();
    }

    protected Config config() {
        return root().config();
    }

    protected Instant now() {
        return Instant.now();
    }

    /** The API of the chosen context (or CRATER_SERVER/CRATER_TOKEN), signed in; else a "sign in" error. */
    protected Api api() {
        if (api == null) {
            api = root().api(true);
        }
        return api;
    }

    /** Every page of a keyset-paged list, fetched as it is read; stops after {@code max} items (0: all). */
    protected Iterator<List<Object>> pages(String path, Map<String, ?> query, int max) {
        return new Iterator<>() {
            private String cursor;
            private boolean done;
            private int seen;

            @Override
            public boolean hasNext() {
                return !done;
            }

            @Override
            public List<Object> next() {
                if (done) {
                    throw new NoSuchElementException();
                }
                Map<String, Object> q = new LinkedHashMap<>(query);
                q.put("cursor", cursor);
                if (max > 0) {
                    q.put("limit", Math.min(200, max - seen));
                }
                Object page = api().get(path, q);
                List<Object> items = Values.items(page);
                if (max > 0 && seen + items.size() > max) {
                    items = items.subList(0, max - seen);
                }
                seen += items.size();
                cursor = Values.text(page, "nextCursor");
                done = cursor == null || items.isEmpty() || (max > 0 && seen >= max);
                return items;
            }
        };
    }

    /**
     * Asks before something that cannot be undone: {@code --yes} answers for the user; without a terminal the
     * command refuses rather than guess.
     */
    protected void confirm(String question) {
        if (root().yes()) {
            return;
        }
        if (!term().interactive()) {
            throw new CliException(Exit.USAGE, msg().get("confirm.needYes", question));
        }
        err().print(question + " [y/N] ");
        err().flush();
        String answer = readLine();
        if (answer == null || !answer.strip().toLowerCase(java.util.Locale.ROOT).matches("y|yes|是|好")) {
            throw new CliException(Exit.ERROR, msg().get("confirm.cancelled"));
        }
    }

    /** One line from the terminal's input, or null at its end. */
    protected String readLine() {
        try {
            BufferedReader r = new BufferedReader(new InputStreamReader(term().in(), StandardCharsets.UTF_8));
            return r.readLine();
        } catch (IOException e) {
            return null;
        }
    }

    /** All of standard input (secrets, specs given as {@code -}). */
    protected String readAll() {
        try {
            return new String(term().in().readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new CliException(Exit.ERROR, "cannot read standard input: " + e.getMessage());
        }
    }
}
