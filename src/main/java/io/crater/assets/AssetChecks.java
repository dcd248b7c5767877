package io.crater.assets;

import io.crater.platform.Problem;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/** The checks on an entry's fields that need nothing looked up. */
final class AssetChecks {

    static final Pattern NAME = Pattern.compile("^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$");
    static final Pattern TAG = Pattern.compile("^[a-z0-9](?:[a-z0-9.-]{0,30}[a-z0-9])?$");
    static final Pattern PUBLIC_ID = Pattern.compile("^(?:ds|md)_[a-z0-9]{6,16}$");
    static final Set<String> KINDS = Set.of("dataset", "model");
    static final Set<String> VISIBILITIES = Set.of("private", "account", "public");
    static final int MAX_TAGS = 20;

    private AssetChecks() {}

    /** The fields as checked: tags sorted and without duplicates, blanks as empty text. */
    record Fields(
            String name,
            String description,
            String licence,
            String source,
            String revision,
            String visibility,
            String account,
            List<String> tags) {}

    static Fields check(AssetViews.UpdateAsset req, Fields before, List<Problem.FieldError> errors) {
        String name = req.name() == null ? before.name() : req.name().trim();
        if (!NAME.matcher(name).matches()) {
            errors.add(new Problem.FieldError("name", "1 to 63 lowercase letters, digits or inner -"));
        }
        String visibility = req.visibility() == null ? before.visibility() : req.visibility();
        if (!VISIBILITIES.contains(visibility)) {
            errors.add(new Problem.FieldError("visibility", "private, account or public"));
        }
        String account = req.account() == null
                ? (req.visibility() == null ? before.account() : null)
                : req.account().trim();
        if ("account".equals(visibility) && (account == null || account.isEmpty())) {
            errors.add(new Problem.FieldError("account", "required to share with an account"));
        } else if (!"account".equals(visibility) && account != null && !account.isEmpty()) {
            errors.add(new Problem.FieldError("account", "only for visibility account"));
        }
        return new Fields(
                name,
                text(req.description(), before.description(), "description", 2000, errors),
                text(req.licence(), before.licence(), "licence", 200, errors),
                text(req.source(), before.source(), "source", 2000, errors),
                text(req.revision(), before.revision(), "revision", 200, errors),
                visibility,
                "account".equals(visibility) ? account : null,
                req.tags() == null ? before.tags() : tags(req.tags(), errors));
    }

    /** What a new entry starts from before its fields are applied. */
    static final Fields EMPTY = new Fields("", "", "", "", "", "private", null, List.of());

    private static String text(String given, String before, String field, int max, List<Problem.FieldError> errors) {
        String v = given == null ? before : given.trim();
        if (v.length() > max) {
            errors.add(new Problem.FieldError(field, "at most " + max + " characters"));
        }
        if (v.chars().anyMatch(c -> c < 0x20 && c != '\n' && c != '\t')) {
            errors.add(new Problem.FieldError(field, "no control characters"));
        }
        return v;
    }

    private static List<String> tags(List<String> given, List<Problem.FieldError> errors) {
        TreeSet<String> out = new TreeSet<>();
        for (String t : given) {
            if (t == null || !TAG.matcher(t).matches()) {
                errors.add(new Problem.FieldError("tags", "tags are 1 to 32 lowercase letters, digits, . or -"));
                return List.of();
            }
            out.add(t);
        }
        if (out.size() > MAX_TAGS) {
            errors.add(new Problem.FieldError("tags", "at most " + MAX_TAGS + " tags"));
        }
        return new ArrayList<>(out);
    }

    /** Tags as stored: between commas, so that one is found with {@code position(',' || tag || ',' ...)}. */
    static String stored(List<String> tags) {
        return "," + String.join(",", tags) + (tags.isEmpty() ? "" : ",");
    }

    static List<String> tagsOf(String stored) {
        return stored == null || stored.length() < 2
                ? List.of()
                : List.of(stored.substring(1, stored.length() - 1).split(","));
    }
}
