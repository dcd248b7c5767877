package io.crater.assets;

import io.crater.files.FileTargets;
import io.crater.platform.Actor;
import io.crater.platform.AuditTrail;
import io.crater.platform.Problem;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/**
 * A verified download's catalogue entry: created with the download's name, visibility and account, {@code source} the
 * repository's address on the hub and {@code revision} the commit; an entry of that name the owner has at the same
 * place is updated instead. An entry of that name elsewhere fails the download ({@code AssetExists}).
 */
@ApplicationScoped
public class DownloadedEntries {

    @Inject
    AssetQueries assets;

    @Inject
    AuditTrail audit;

    @Inject
    Clock clock;

    /** The entry's public id, or (null and) why there is none. */
    public record Result(String asset, String reason, String message) {}

    /** What a download makes an entry of: its owner's, at {@code space}/{@code path}, from {@code source} at {@code revision}. */
    public record Downloaded(
            String downloadId,
            long ownerId,
            String kind,
            String name,
            String source,
            String revision,
            String visibility,
            Long accountId) {}

    /** An entry's name, visibility and account as checked ({@code account} null unless shared with one). */
    public record Fields(String name, String visibility, String account) {}

    /** Checks a future entry's name, visibility and account as an entry's are checked; the faults into {@code errors}. */
    public static Fields check(String name, String visibility, String account, List<Problem.FieldError> errors) {
        AssetChecks.Fields f = AssetChecks.check(
                new AssetViews.UpdateAsset(
                        name == null ? "" : name, null, null, null, null, null, null, visibility, account, null),
                AssetChecks.EMPTY,
                errors);
        return new Fields(f.name(), f.visibility(), f.account());
    }

    /** Whether the owner has an entry of that kind and name. In a session. */
    public Uni<Boolean> nameTaken(long ownerId, String kind, String name) {
        return assets.nameTaken(ownerId, kind, name, 0);
    }

    /** In a transaction. */
    public Uni<Result> enter(Downloaded d, FileTargets.Inspected measured) {
        if (!measured.ok()) {
            return Uni.createFrom().item(new Result(null, "TargetGone", measured.refusal()));
        }
        FileTargets.Target t = measured.target();
        String publicId = AssetIds.next(d.kind());
        AssetQueries.AssetRow row = row(0, publicId, d, t, null, null);
        return assets.insert(row).flatMap(inserted -> {
            if (inserted.isPresent()) {
                return record("asset.create", d, t, publicId).replaceWith(new Result(publicId, null, null));
            }
            return assets.named(new AssetQueries.Viewer(d.ownerId(), true, List.of()), d.kind(), d.name(), d.ownerId())
                    .flatMap(found -> {
                        AssetQueries.AssetRow before = found.isEmpty() ? null : found.get(0);
                        if (before == null
                                || !before.space().equals(t.space())
                                || !before.path().equals(t.path())) {
                            return Uni.createFrom()
                                    .item(new Result(
                                            null,
                                            "AssetExists",
                                            "the owner has a " + d.kind() + " named '" + d.name()
                                                    + "' elsewhere already; the files are in " + t.path()));
                        }
                        AssetQueries.AssetRow updated =
                                row(before.id(), before.publicId(), d, t, before.description(), before.tags());
                        return assets.update(updated)
                                .call(x -> record("asset.update", d, t, before.publicId()))
                                .replaceWith(new Result(before.publicId(), null, null));
                    });
        });
    }

    private AssetQueries.AssetRow row(
            long id, String publicId, Downloaded d, FileTargets.Target t, String description, String tags) {
        return new AssetQueries.AssetRow(
                id,
                publicId,
                d.kind(),
                d.name(),
                d.ownerId(),
                description == null ? "" : description,
                t.space(),
                t.path(),
                t.type(),
                t.sizeBytes(),
                t.files(),
                clock.instant(),
                "",
                d.source(),
                d.revision(),
                d.visibility(),
                d.accountId(),
                tags == null ? AssetChecks.stored(List.of()) : tags,
                null,
                null);
    }

    private Uni<Void> record(String action, Downloaded d, FileTargets.Target t, String assetId) {
        return audit.record(
                        Actor.system(),
                        action,
                        d.kind(),
                        assetId,
                        null,
                        Map.of("name", d.name(), "space", t.space(), "path", t.path(), "download", d.downloadId()))
                .replaceWithVoid();
    }
}
