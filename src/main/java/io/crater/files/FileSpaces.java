package io.crater.files;

import io.crater.account.AccountService;
import io.crater.identity.Caller;
import io.crater.identity.UserService;
import io.crater.identity.UserView;
import io.crater.platform.ApiException;
import io.crater.platform.OnContext;
import io.crater.policy.FileAccess;
import io.crater.policy.FileQuota;
import io.quarkus.hibernate.reactive.panache.Panache;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Opens a space for a caller: which space the API name means, what the caller may do there ({@link FileAccess}),
 * where its root is and who new entries belong to. Blocking: called from worker threads (the file API's
 * {@code @Blocking} methods, the upload route's blocking steps).
 */
@ApplicationScoped
public class FileSpaces {

    @Inject
    FilesConfig config;

    @Inject
    UserService users;

    @Inject
    AccountService accounts;

    /**
     * A space opened for a caller.
     *
     * @param accountId the account's id for an account space, else null
     */
    record Opened(FileAccess.Space space, FileAccess.Level level, Path root, SpaceFs.Owner owner, Long accountId) {
        String name() {
            return space.name();
        }

        /** The key the space's trash, usage and quota are kept under (a user space by its user's slug). */
        String key() {
            return space.kind() == FileAccess.Kind.USER ? "user:" + space.slug() : space.name();
        }
    }

    /** The space for reading, or a 404 when the caller may not see it (as if it did not exist). */
    Opened forReading(Caller caller, String name) {
        Opened o = open(caller, name);
        if (!o.level().reads()) {
            throw ApiException.notFound("no file space '" + name + "'");
        }
        return o;
    }

    /** The space for writing: 404 when the caller may not see it, 403 when they may only read it. */
    Opened forWriting(Caller caller, String name) {
        Opened o = forReading(caller, name);
        if (!o.level().writes()) {
            throw ApiException.forbidden(
                    "ReadOnlySpace", "you may read the space '" + name + "' but not change anything in it");
        }
        return o;
    }

    private Opened open(Caller caller, String name) {
        UserView me = OnContext.run(() -> users.get(caller.userId())).await().indefinitely();
        FileAccess.Viewer bare = new FileAccess.Viewer(me.slug(), caller.platformAdmin(), Map.of());
        FileAccess.Space space = FileAccess.parse(name, bare);
        if (space == null) {
            throw ApiException.notFound("no file space '" + name + "'");
        }
        return switch (space.kind()) {
            case USER -> opened(space, bare, new SpaceFs.Owner(FileAccess.Kind.USER, me.uid(), null), null);
            case PUBLIC -> opened(space, bare, new SpaceFs.Owner(FileAccess.Kind.PUBLIC, null, null), null);
            case ACCOUNT -> account(space, caller, bare);
        };
    }

    private Opened account(FileAccess.Space space, Caller caller, FileAccess.Viewer bare) {
        Optional<AccountService.SpaceAccount> account = OnContext.run(
                        () -> Panache.withSession(() -> accounts.spaceAccount(space.slug(), caller.userId())))
                .await()
                .indefinitely();
        if (account.isEmpty()) {
            return new Opened(space, FileAccess.Level.NONE, null, null, null);
        }
        AccountService.SpaceAccount a = account.get();
        FileAccess.Viewer viewer = new FileAccess.Viewer(
                bare.userSlug(),
                bare.platformAdmin(),
                a.fileAccess() == null ? Map.of() : Map.of(a.slug(), a.fileAccess()));
        return opened(space, viewer, new SpaceFs.Owner(FileAccess.Kind.ACCOUNT, null, a.gid()), a.id());
    }

    private Opened opened(FileAccess.Space space, FileAccess.Viewer viewer, SpaceFs.Owner owner, Long accountId) {
        FileAccess.Level level = FileAccess.of(space, viewer);
        Path root = level.reads() ? SpaceFs.root(config.spacesRoot(), space, owner) : null;
        return new Opened(space, level, root, owner, accountId);
    }

    /** The configured default quota of a kind of space. */
    FileQuota.Limit defaults(FileAccess.Kind kind) {
        FilesConfig.Quotas q = config.quota();
        return switch (kind) {
            case USER -> new FileQuota.Limit(q.userBytes(), q.userFiles());
            case ACCOUNT -> new FileQuota.Limit(q.accountBytes(), q.accountFiles());
            case PUBLIC -> new FileQuota.Limit(q.publicBytes(), q.publicFiles());
        };
    }

    /** The space's quota: a platform admin's override when there is one, else the default of its kind. */
    FileQuota.Limit limit(Opened space) {
        return OnContext.run(() -> Panache.withSession(() -> FileQueries.quota(space.key())))
                .await()
                .indefinitely()
                .map(FileQueries.QuotaRow::limit)
                .orElseGet(() -> defaults(space.space().kind()));
    }
}
