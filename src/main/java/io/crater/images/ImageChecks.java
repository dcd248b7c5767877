package io.crater.images;

import io.crater.platform.Problem;
import io.crater.policy.ImageReferences;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/** The checks on an image's fields that need nothing looked up; the rules themselves are {@link ImageReferences}. */
final class ImageChecks {

    static final Pattern PUBLIC_ID = Pattern.compile("^im_[a-z0-9]{6,16}$");
    static final Set<String> VISIBILITIES = Set.of("private", "account", "public");
    static final int MAX_SHARES = 50;
    private static final Pattern NAME = Pattern.compile("^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$");

    private ImageChecks() {}

    /** The fields as checked: the reference canonical, lists sorted (tags in the order given), blanks empty. */
    record Fields(
            ImageReferences.Reference reference,
            String description,
            List<String> tags,
            String cudaVersion,
            List<String> architectures,
            List<String> vendors,
            List<String> kinds,
            String visibility,
            String account,
            List<String> users,
            List<String> accounts) {}

    /** Applies {@code req} over {@code before} (null fields stay), adding what is wrong to {@code errors}. */
    static Fields check(ImageViews.UpdateImage req, Fields before, List<Problem.FieldError> errors) {
        List<ImageReferences.Refusal> refusals = new ArrayList<>();
        ImageReferences.Reference reference = before.reference();
        if (req.reference() != null || reference == null) {
            ImageReferences.Parsed parsed = ImageReferences.parse(req.reference());
            if (parsed.refusal() != null) {
                refusals.add(new ImageReferences.Refusal("reference", parsed.refusal()));
            }
            reference = parsed.reference();
        }
        List<String> tags = req.tags() == null && before.reference() != null
                ? before.tags()
                : ImageReferences.tags(req.tags(), refusals);
        String cuda =
                req.cudaVersion() == null ? before.cudaVersion() : ImageReferences.cuda(req.cudaVersion(), refusals);
        List<String> archs = req.architectures() == null
                ? before.architectures()
                : ImageReferences.oneOf(req.architectures(), ImageReferences.ARCHITECTURES, "architectures", refusals);
        List<String> vendors =
                req.vendors() == null ? before.vendors() : ImageReferences.vendors(req.vendors(), refusals);
        List<String> kinds = req.kinds() == null
                ? before.kinds()
                : ImageReferences.oneOf(req.kinds(), ImageReferences.KINDS, "kinds", refusals);
        refusals.forEach(r -> errors.add(new Problem.FieldError(r.field(), r.message())));
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
        ImageViews.Shares shares = req.sharedWith();
        return new Fields(
                reference,
                text(req.description(), before.description(), errors),
                tags,
                cuda,
                archs,
                vendors,
                kinds,
                visibility,
                "account".equals(visibility) ? account : null,
                shares == null || shares.users() == null
                        ? before.users()
                        : names(shares.users(), "sharedWith.users", errors),
                shares == null || shares.accounts() == null
                        ? before.accounts()
                        : names(shares.accounts(), "sharedWith.accounts", errors));
    }

    /** What a new image starts from before its fields are applied. */
    static final Fields EMPTY =
            new Fields(null, "", List.of(), "", List.of(), List.of(), List.of(), "private", null, List.of(), List.of());

    private static String text(String given, String before, List<Problem.FieldError> errors) {
        String v = given == null ? before : given.trim();
        if (v.length() > 2000) {
            errors.add(new Problem.FieldError("description", "at most 2000 characters"));
        }
        if (v.chars().anyMatch(c -> c < 0x20 && c != '\n' && c != '\t')) {
            errors.add(new Problem.FieldError("description", "no control characters"));
        }
        return v;
    }

    private static List<String> names(List<String> given, String field, List<Problem.FieldError> errors) {
        TreeSet<String> out = new TreeSet<>();
        for (String n : given) {
            if (n == null || !NAME.matcher(n.trim()).matches()) {
                errors.add(new Problem.FieldError(field, "'" + n + "' is not a username or account slug"));
                return List.of();
            }
            out.add(n.trim());
        }
        if (out.size() > MAX_SHARES) {
            errors.add(new Problem.FieldError(field, "at most " + MAX_SHARES));
        }
        return new ArrayList<>(out);
    }

    /** A list as stored: between commas, so that one entry is found with {@code position(',' || v || ',' ...)}. */
    static String stored(List<String> values) {
        return "," + String.join(",", values) + (values.isEmpty() ? "" : ",");
    }

    static List<String> listOf(String stored) {
        return stored == null || stored.length() < 2
                ? List.of()
                : List.of(stored.substring(1, stored.length() - 1).split(","));
    }
}
