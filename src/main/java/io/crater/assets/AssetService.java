package io.crater.assets;

import io.crater.account.AccountService;
import io.crater.files.FileTargets;
import io.crater.identity.Caller;
import io.crater.identity.UserService;
import io.crater.platform.ApiException;
import io.crater.platform.AuditTrail;
import io.crater.platform.OnContext;
import io.crater.platform.Page;
import io.crater.platform.Problem;
import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Datasets and models: entries that point at a folder or file of a file space, seen by their owner, the members
 * of one account, or everyone, and mounted read-only into jobs. Only the owner (or a platform admin) changes or
 * deletes one; someone who may not see it gets 404, as for one that does not exist.
 */
@ApplicationScoped
public class AssetService {

    @Inject
    AssetQueries queries;

    @Inject
    AssetReads reads;

    @Inject
    FileTargets targets;

    @Inject
    AccountService accounts;

    @Inject
    UserService users;

    @Inject
    MountingJobs jobs;

    @Inject
    AuditTrail audit;

    @Inject
    Clock clock;

    /** A page of what the caller sees; {@code account} (a slug, or null) must be one the caller may read. */
    public Uni<AssetViews.AssetPage> list(
            Caller caller, String account, AssetQueries.Filter filter, String cursor, Integer limit) {
        long before = Page.afterId(cursor);
        int n = Page.limit(limit);
        Uni<AssetQueries.Filter> scoped = account == null
                ? Uni.createFrom().item(filter)
                : accounts.access(account, caller)
                        .map(a -> new AssetQueries.Filter(
                                filter.kind(),
                                filter.tag(),
                                filter.q(),
                                filter.visibility(),
                                a.id(),
                                filter.ownerId()));
        return Panache.withSession(() -> scoped.flatMap(
                        f -> reads.viewer(caller).flatMap(v -> queries.list(v, f, before, n)))
                .flatMap(rows -> reads.views(rows.size() > n ? rows.subList(0, n) : rows, caller)
                        .map(items -> new AssetViews.AssetPage(
                                items,
                                rows.size() > n ? Long.toString(rows.get(n - 1).id()) : null))));
    }

    public Uni<AssetViews.Asset> get(String id, Caller caller) {
        return Panache.withSession(() -> reads.visible(id, caller).flatMap(row -> reads.view(row, caller)));
    }

    public Uni<AssetViews.Asset> create(AssetViews.CreateAsset req, Caller caller) {
        if (req == null) {
            throw invalid(List.of(new Problem.FieldError("body", "required")));
        }
        List<Problem.FieldError> errors = new ArrayList<>();
        if (req.kind() == null || !AssetChecks.KINDS.contains(req.kind())) {
            errors.add(new Problem.FieldError("kind", "dataset or model"));
        }
        AssetChecks.Fields f = AssetChecks.check(
                new AssetViews.UpdateAsset(
                        req.name() == null ? "" : req.name(),
                        req.description(),
                        req.space(),
                        req.path(),
                        req.licence(),
                        req.source(),
                        req.revision(),
                        req.visibility(),
                        req.account(),
                        req.tags()),
                AssetChecks.EMPTY,
                errors);
        if (!errors.isEmpty()) {
            throw invalid(errors);
        }
        String space = req.space() == null || req.space().isBlank()
                ? "user"
                : req.space().trim();
        return blocking(() -> targets.inspect(caller, space, req.path()))
                .flatMap(t -> OnContext.run(() -> Panache.withTransaction(() -> accountOf(f, caller.userId())
                        .flatMap(accountId -> {
                            FileTargets.Target target = checkedTarget(t, f, caller);
                            AssetQueries.AssetRow row = row(
                                    0, AssetIds.next(req.kind()), req.kind(), caller.userId(), f, target, accountId);
                            return queries.insert(row).flatMap(inserted -> {
                                if (inserted.isEmpty()) {
                                    throw ApiException.conflict(
                                            "AssetExists",
                                            "you have a " + req.kind() + " named '" + f.name() + "' already");
                                }
                                return audit.record(
                                                caller.actor(null),
                                                "asset.create",
                                                req.kind(),
                                                row.publicId(),
                                                null,
                                                fields(row))
                                        .flatMap(x -> queries.byPublicId(row.publicId()))
                                        .flatMap(r -> reads.view(r.orElseThrow(), caller));
                            });
                        }))));
    }

    public Uni<AssetViews.Asset> update(String id, AssetViews.UpdateAsset req, Caller caller) {
        if (req == null) {
            throw invalid(List.of(new Problem.FieldError("body", "required")));
        }
        if ((req.space() == null) != (req.path() == null)) {
            throw invalid(List.of(
                    new Problem.FieldError(req.space() == null ? "space" : "path", "give space and path together")));
        }
        return Panache.withSession(() -> reads.editableWithAccount(id, caller)).flatMap(found -> {
            AssetQueries.AssetRow before = found.row();
            List<Problem.FieldError> errors = new ArrayList<>();
            AssetChecks.Fields f = AssetChecks.check(req, fieldsOf(before, found.account()), errors);
            if (!errors.isEmpty()) {
                throw invalid(errors);
            }
            Uni<FileTargets.Inspected> inspected = req.space() == null
                    ? Uni.createFrom().item(new FileTargets.Inspected(targetOf(before), null, null))
                    : blocking(() -> targets.inspect(caller, req.space().trim(), req.path()));
            return inspected.flatMap(t -> OnContext.run(() ->
                    Panache.withTransaction(() -> accountOf(f, before.ownerId()).flatMap(accountId -> {
                        FileTargets.Target target = checkedTarget(t, f, caller);
                        AssetQueries.AssetRow after = row(
                                before.id(), before.publicId(), before.kind(), before.ownerId(), f, target, accountId);
                        return queries.nameTaken(before.ownerId(), before.kind(), f.name(), before.id())
                                .flatMap(taken -> {
                                    if (taken) {
                                        throw ApiException.conflict(
                                                "AssetExists",
                                                "the owner has a " + before.kind() + " named '" + f.name()
                                                        + "' already");
                                    }
                                    return queries.update(after);
                                })
                                .flatMap(x -> audit.record(
                                        caller.actor(null),
                                        "asset.update",
                                        before.kind(),
                                        id,
                                        fields(before),
                                        fields(after)))
                                .flatMap(x -> reads.visible(id, caller))
                                .flatMap(r -> reads.view(r, caller));
                    }))));
        });
    }

    /** Measures the entry's path again (it may have changed through jobs, SFTP or the file API). */
    public Uni<AssetViews.Asset> refresh(String id, Caller caller) {
        return Panache.withSession(() -> reads.editable(id, caller))
                .flatMap(before -> blocking(() -> targets.measure(before.space(), before.path()))
                        .flatMap(t -> OnContext.run(() -> Panache.withTransaction(() -> {
                            if (!t.ok()) {
                                throw ApiException.conflict(
                                        "AssetTargetGone",
                                        "cannot measure " + before.space() + before.path() + ": " + t.refusal());
                            }
                            AssetQueries.AssetRow after = row(
                                    before.id(),
                                    before.publicId(),
                                    before.kind(),
                                    before.ownerId(),
                                    fieldsOf(before, null),
                                    t.target(),
                                    before.accountId());
                            return queries.update(after)
                                    .flatMap(x -> reads.visible(id, caller))
                                    .flatMap(r -> reads.view(r, caller));
                        }))));
    }

    /** Deletes the entry (never its files); refused with 409 while a job that has not ended mounts it. */
    public Uni<Void> delete(String id, Caller caller) {
        return Panache.withTransaction(() -> reads.editable(id, caller)
                .call(row -> queries.lock(row.id()))
                .call(row -> queries.jobsMounting(row.id())
                        .flatMap(jobs::unfinished)
                        .map(running -> {
                            if (!running.isEmpty()) {
                                throw ApiException.conflict(
                                        "AssetInUse",
                                        "the " + row.kind() + " '" + row.name()
                                                + "' is mounted by jobs that have not ended: "
                                                + String.join(", ", running) + "; stop them first");
                            }
                            return running;
                        }))
                .call(row -> queries.delete(row.id()))
                .flatMap(row -> audit.record(caller.actor(null), "asset.delete", row.kind(), id, fields(row), null)));
    }

    private FileTargets.Target checkedTarget(FileTargets.Inspected t, AssetChecks.Fields f, Caller caller) {
        if (!t.ok()) {
            throw invalid(List.of(new Problem.FieldError(t.field(), t.refusal())));
        }
        if ("public".equals(f.visibility())
                && !caller.platformAdmin()
                && !"public".equals(t.target().space())) {
            throw invalid(List.of(new Problem.FieldError(
                    "visibility", "only platform admins publish entries outside the public space")));
        }
        return t.target();
    }

    /** The account an entry is shared with: its owner must be a member. */
    private Uni<Long> accountOf(AssetChecks.Fields f, long ownerId) {
        if (f.account() == null) {
            return Uni.createFrom().nullItem();
        }
        return accounts.memberAccountId(f.account(), ownerId)
                .map(id -> id.orElseThrow(() -> invalid(List.of(new Problem.FieldError(
                        "account", "the owner is not a member of account '" + f.account() + "'")))));
    }

    private AssetQueries.AssetRow row(
            long id,
            String publicId,
            String kind,
            long ownerId,
            AssetChecks.Fields f,
            FileTargets.Target t,
            Long accountId) {
        return new AssetQueries.AssetRow(
                id,
                publicId,
                kind,
                f.name(),
                ownerId,
                f.description(),
                t.space(),
                t.path(),
                t.type(),
                t.sizeBytes(),
                t.files(),
                clock.instant(),
                f.licence(),
                f.source(),
                f.revision(),
                f.visibility(),
                accountId,
                AssetChecks.stored(f.tags()),
                null,
                null);
    }

    private static AssetChecks.Fields fieldsOf(AssetQueries.AssetRow r, String account) {
        return new AssetChecks.Fields(
                r.name(),
                r.description(),
                r.licence(),
                r.source(),
                r.revision(),
                r.visibility(),
                account,
                AssetChecks.tagsOf(r.tags()));
    }

    private static FileTargets.Target targetOf(AssetQueries.AssetRow r) {
        return new FileTargets.Target(r.space(), r.path(), r.targetType(), r.sizeBytes(), r.files());
    }

    private static Map<String, Object> fields(AssetQueries.AssetRow r) {
        return Map.of("name", r.name(), "space", r.space(), "path", r.path(), "visibility", r.visibility());
    }

    private static <T> Uni<T> blocking(Supplier<T> work) {
        return Uni.createFrom().item(work).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }

    static ApiException invalid(List<Problem.FieldError> errors) {
        return ApiException.badRequest("InvalidAsset", "the entry cannot be saved as given", errors);
    }
}
