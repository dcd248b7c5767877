package io.crater.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Where a file lives on the server: {@code SPACE:/PATH}. The space is {@code user} (your own), {@code public},
 * {@code account:SLUG} or {@code account} alone for the account commands act in; the path always starts with
 * {@code /}, so the first {@code :/} ends the space even though an account's space name holds a colon
 * ({@code account:vision:/data/x}). {@code SPACE:} alone is the space's root. A path ending in {@code /} names a
 * folder to put things into under their own names.
 *
 * @param space the API's space name, or {@code account} while the current account is still to be filled in
 * @param segments the path's names, none empty, {@code .} or {@code ..}
 * @param into whether the path ended in {@code /}
 */
public record FileAddress(String space, List<String> segments, boolean into) {

    private static final Pattern SLUG = Pattern.compile("[a-z0-9]([-a-z0-9]{0,48}[a-z0-9])?");

    public FileAddress {
        segments = List.copyOf(segments);
    }

    /** Reads an address; a malformed one is a usage error saying the form. */
    public static FileAddress parse(String text) {
        int split = text.indexOf(":/");
        String space;
        String path;
        if (split >= 0) {
            space = text.substring(0, split);
            path = text.substring(split + 1);
        } else if (text.endsWith(":")) {
            space = text.substring(0, text.length() - 1);
            path = "/";
        } else {
            throw bad(text, "it has no SPACE:/PATH");
        }
        if (!space.equals("user")
                && !space.equals("public")
                && !space.equals("account")
                && !(space.startsWith("account:")
                        && SLUG.matcher(space.substring(8)).matches())) {
            throw bad(text, "'" + space + "' is not a space (user, public, account or account:SLUG)");
        }
        List<String> segments = new ArrayList<>();
        for (String s : path.split("/")) {
            if (s.equals(".") || s.equals("..")) {
                throw bad(text, "'.' and '..' are not names here");
            }
            if (!s.isEmpty()) {
                segments.add(s);
            }
        }
        return new FileAddress(space, segments, path.endsWith("/") && !segments.isEmpty());
    }

    /** An entry the API named: its space and its path ({@code /data/a.txt}). */
    public static FileAddress of(String space, String path) {
        List<String> segments = new ArrayList<>();
        for (String s : (path == null ? "" : path).split("/")) {
            if (!s.isEmpty()) {
                segments.add(s);
            }
        }
        return new FileAddress(space, segments, false);
    }

    private static CliException bad(String text, String why) {
        return new CliException(
                Exit.USAGE,
                "'" + text + "' is not a file address (" + why + "): write SPACE:/PATH, e.g. user:/data/a.txt,"
                        + " account:vision:/shared, account:/x (the current account), public:/datasets");
    }

    /** The address with {@code account} made the current account's space. */
    public FileAddress in(String currentAccount) {
        return space.equals("account") ? new FileAddress("account:" + currentAccount, segments, into) : this;
    }

    /** Whether this still needs the current account ({@link #in}). */
    public boolean needsAccount() {
        return space.equals("account");
    }

    /** The path inside the space as the API writes it: {@code /data/a.txt}, {@code /} for the root. */
    public String path() {
        return "/" + String.join("/", segments);
    }

    /** The last name, or null for the root. */
    public String name() {
        return segments.isEmpty() ? null : segments.get(segments.size() - 1);
    }

    public boolean root() {
        return segments.isEmpty();
    }

    /** The same space, one name further down. */
    public FileAddress child(String name) {
        List<String> s = new ArrayList<>(segments);
        s.add(name);
        return new FileAddress(space, s, false);
    }

    /** The folder this entry is in (the root's is the root). */
    public FileAddress parent() {
        return root() ? this : new FileAddress(space, segments.subList(0, segments.size() - 1), false);
    }

    /** Where something called {@code name} lands when this is its destination: inside when it ended in /. */
    public FileAddress target(String name) {
        return into || root() ? child(name) : this;
    }

    /** {@code /api/v1/files/SPACE/PATH}, each part percent-encoded once. */
    public String url() {
        return url("/api/v1/files/");
    }

    String url(String prefix) {
        StringBuilder b = new StringBuilder(prefix).append(Api.seg(space));
        for (String s : segments) {
            b.append('/').append(Api.seg(s));
        }
        return b.toString();
    }

    @Override
    public String toString() {
        return space + ":" + path();
    }
}
