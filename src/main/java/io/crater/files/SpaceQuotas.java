package io.crater.files;

import io.crater.account.AccountService;
import io.crater.identity.Caller;
import io.crater.identity.UserAccounts;
import io.crater.platform.ApiException;
import io.crater.platform.AuditTrail;
import io.crater.platform.OnContext;
import io.crater.platform.Problem;
import io.crater.policy.FileAccess;
import io.crater.policy.FileQuota;
import io.quarkus.hibernate.reactive.panache.Panache;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The spaces a caller may see with their usage and quotas, and the quotas platform admins set on accounts' spaces. */
@ApplicationScoped
class SpaceQuotas {

    @Inject
    FileSpaces spaces;

    @Inject
    SpaceUsage usage;

    @Inject
    UserAccounts memberships;

    @Inject
    AccountService accounts;

    @Inject
    AuditTrail audit;

    /** The caller's own space, each of their accounts' spaces, then public. */
    List<FileViews.SpaceView> visible(Caller caller) {
        List<String> names = new ArrayList<>();
        names.add("user");
        OnContext.run(() -> Panache.withSession(() -> memberships.of(caller.userId())))
                .await()
                .indefinitely()
                .forEach(m -> names.add("account:" + m.slug()));
        names.add("public");
        return names.stream().map(n -> view(spaces.forReading(caller, n))).toList();
    }

    FileViews.SpaceView view(FileSpaces.Opened s) {
        FileQuota.Usage used = usage.of(s);
        FileQuota.Limit limit = spaces.limit(s);
        return new FileViews.SpaceView(
                s.name(),
                s.space().kind().name().toLowerCase(java.util.Locale.ROOT),
                s.level().writes() ? "rw" : "ro",
                used.bytes(),
                used.files(),
                limit.bytes(),
                limit.files());
    }

    /** Sets (or with null, clears) an account space's quota; platform admins only. */
    FileQuota.Limit set(Caller caller, String name, FileViews.SetQuota req, boolean clear) {
        if (!caller.platformAdmin()) {
            throw ApiException.forbidden("Forbidden", "only platform admins set the quotas of file spaces");
        }
        FileAccess.Space space = FileAccess.parse(name, new FileAccess.Viewer("", true, Map.of()));
        if (space == null || space.kind() != FileAccess.Kind.ACCOUNT) {
            throw ApiException.notFound("quotas are set on account spaces (account:<slug>); no space '" + name + "'");
        }
        boolean exists = OnContext.run(
                        () -> Panache.withSession(() -> accounts.spaceAccount(space.slug(), caller.userId())))
                .await()
                .indefinitely()
                .isPresent();
        if (!exists) {
            throw ApiException.notFound("no account '" + space.slug() + "'");
        }
        if (!clear) {
            check(req);
        }
        FileQuota.Limit after =
                clear ? spaces.defaults(FileAccess.Kind.ACCOUNT) : new FileQuota.Limit(req.maxBytes(), req.maxFiles());
        OnContext.run(() -> Panache.withTransaction(() -> (clear
                                ? FileQueries.clearQuota(name)
                                : FileQueries.setQuota(name, after.bytes(), after.files(), caller.userId()))
                        .flatMap(n -> audit.record(
                                caller.actor(space.slug()),
                                clear ? "file-quota.clear" : "file-quota.set",
                                "space",
                                name,
                                null,
                                Map.of("maxBytes", after.bytes(), "maxFiles", after.files())))))
                .await()
                .indefinitely();
        return after;
    }

    private static void check(FileViews.SetQuota req) {
        List<Problem.FieldError> errors = new ArrayList<>();
        if (req == null || req.maxBytes() == null || req.maxBytes() < -1) {
            errors.add(new Problem.FieldError("maxBytes", "a number of bytes, or -1 for unlimited"));
        }
        if (req == null || req.maxFiles() == null || req.maxFiles() < -1) {
            errors.add(new Problem.FieldError("maxFiles", "a number of files, or -1 for unlimited"));
        }
        if (!errors.isEmpty()) {
            throw ApiException.badRequest("InvalidRequest", "maxBytes and maxFiles are required", errors);
        }
    }
}
