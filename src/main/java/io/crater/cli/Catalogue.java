package io.crater.cli;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * What the catalogue verbs ({@code dataset}, {@code model}, {@code image}) share: finding an entry by its id or by
 * what people call it, remembering the ids a list printed for completion, and the labelled lines of {@code get}.
 */
final class Catalogue {

    private Catalogue() {}

    /** Ids as the API hands them out: {@code ds_…}, {@code md_…}, {@code im_…}. */
    static final Pattern ID = Pattern.compile("(ds|md|im)_[a-z0-9]{4,40}");

    /**
     * The id of the entry a word names: the id itself, else the one entry the caller sees that {@code matches} it
     * among those the list at {@code path} finds for {@code query} (one's own first, when several people's match).
     * None is "not found"; several of other people's are a usage error naming them as {@code owner/name}.
     */
    static String resolve(
            Verb v, String word, String path, Map<String, Object> query, Predicate<Object> matches, String what) {
        if (ID.matcher(word).matches()) {
            return word;
        }
        List<Object> found = new ArrayList<>();
        Iterator<List<Object>> pages = v.pages(path, query, 1000);
        pages.forEachRemaining(page -> page.stream().filter(matches).forEach(found::add));
        if (found.size() > 1) {
            String me = VerbInputs.me(v);
            List<Object> mine = found.stream()
                    .filter(o -> me.equals(Values.text(o, "owner")))
                    .toList();
            if (mine.size() == 1) {
                return Values.text(mine.get(0), "id");
            }
        }
        if (found.isEmpty()) {
            throw new CliException(Exit.NOT_FOUND, v.msg().get("catalogue.none", what, word));
        }
        if (found.size() > 1) {
            List<String> ids = found.stream()
                    .map(o -> Values.text(o, "id") + " (" + Values.text(o, "owner") + ")")
                    .toList();
            throw new CliException(Exit.USAGE, v.msg().get("catalogue.several", what, word, String.join(", ", ids)));
        }
        return Values.text(found.get(0), "id");
    }

    /** {@code owner/name} or {@code name}: whether an entry is the one named. */
    static Predicate<Object> named(String word, String field) {
        int slash = word.indexOf('/');
        String owner = slash < 0 ? null : word.substring(0, slash);
        String name = slash < 0 ? word : word.substring(slash + 1);
        return o -> name.equals(Values.text(o, field)) && (owner == null || owner.equals(Values.text(o, "owner")));
    }

    /** The pages as they are read, their ids added to {@code ids} (for {@link NameCache}). */
    static Iterator<List<Object>> remembering(Iterator<List<Object>> pages, List<String> ids) {
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return pages.hasNext();
            }

            @Override
            public List<Object> next() {
                List<Object> page = pages.next();
                page.forEach(o -> ids.add(Values.text(o, "id")));
                return page;
            }
        };
    }

    /** A labelled line for {@link JobDescribe#labelled}: the message's label and the value (absent: left out). */
    static String[] row(Messages msg, String key, Object value) {
        String text = value instanceof List<?> l
                ? String.join(", ", l.stream().map(String::valueOf).toList())
                : value == null ? "" : value.toString();
        return new String[] {msg.get(key), text};
    }

    /** A query map without the null values (the API's defaults apply). */
    static Map<String, Object> query(Object... pairs) {
        Map<String, Object> q = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            if (pairs[i + 1] != null && !Boolean.FALSE.equals(pairs[i + 1])) {
                q.put((String) pairs[i], pairs[i + 1]);
            }
        }
        return q;
    }

    /** Puts a value that was given (a command line's option), leaving out the others so they stay as they are. */
    static void given(Map<String, Object> body, String key, Object value) {
        if (value != null) {
            body.put(key, value);
        }
    }

    /** A list option: null when not given, the words without blanks otherwise ({@code --tags ''} is none). */
    static List<String> words(List<String> given) {
        return given == null
                ? null
                : given.stream().map(String::strip).filter(s -> !s.isEmpty()).toList();
    }
}
