package io.crater.assets;

import io.crater.account.AccountService;
import io.crater.identity.Caller;
import io.crater.identity.UserService;
import io.crater.platform.ApiException;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Reading entries for a caller: who sees which, who may change it, and the view with names in place of ids. */
@ApplicationScoped
class AssetReads {

    @Inject
    AssetQueries queries;

    @Inject
    AccountService accounts;

    @Inject
    UserService users;

    /** An entry with the slug of the account it is shared with (null when it is not). */
    record Found(AssetQueries.AssetRow row, String account) {}

    Uni<AssetQueries.Viewer> viewer(Caller caller) {
        if (caller.platformAdmin()) {
            return Uni.createFrom().item(new AssetQueries.Viewer(caller.userId(), true, List.of()));
        }
        return accounts.accountIdsOf(caller.userId()).map(ids -> new AssetQueries.Viewer(caller.userId(), false, ids));
    }

    static boolean sees(AssetQueries.Viewer v, AssetQueries.AssetRow a) {
        return v.platformAdmin()
                || a.ownerId() == v.userId()
                || a.visibility().equals("public")
                || a.visibility().equals("account") && v.accountIds().contains(a.accountId());
    }

    /** The entry if the caller sees it; 404 otherwise, as for an id nobody has. In the caller's session. */
    Uni<AssetQueries.AssetRow> visible(String id, Caller caller) {
        if (id == null || !AssetChecks.PUBLIC_ID.matcher(id).matches()) {
            return Uni.createFrom().failure(ApiException.notFound("no dataset or model '" + id + "'"));
        }
        return viewer(caller)
                .flatMap(v -> queries.byPublicId(id)
                        .map(r -> r.filter(a -> sees(v, a))
                                .orElseThrow(() -> ApiException.notFound("no dataset or model '" + id + "'"))));
    }

    /** The entry if the caller may change it (its owner, a platform admin): 404 unseen, 403 seen but not theirs. */
    Uni<AssetQueries.AssetRow> editable(String id, Caller caller) {
        return visible(id, caller).map(a -> {
            if (a.ownerId() != caller.userId() && !caller.platformAdmin()) {
                throw ApiException.forbidden(
                        "NotAssetOwner", "only its owner or a platform admin may change '" + a.name() + "'");
            }
            return a;
        });
    }

    Uni<Found> editableWithAccount(String id, Caller caller) {
        return editable(id, caller)
                .flatMap(a -> a.accountId() == null
                        ? Uni.createFrom().item(new Found(a, null))
                        : accounts.slugs(List.of(a.accountId())).map(s -> new Found(a, s.get(a.accountId()))));
    }

    Uni<AssetViews.Asset> view(AssetQueries.AssetRow row, Caller caller) {
        return views(List.of(row), caller).map(v -> v.get(0));
    }

    /** The views of rows, owners by username and accounts by slug. */
    Uni<List<AssetViews.Asset>> views(List<AssetQueries.AssetRow> rows, Caller caller) {
        if (rows.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        List<Long> owners =
                rows.stream().map(AssetQueries.AssetRow::ownerId).distinct().toList();
        List<Long> shared = rows.stream()
                .map(AssetQueries.AssetRow::accountId)
                .filter(Objects::nonNull)
                .distinct()
                .toList();
        return users.usernames(owners)
                .flatMap(names -> (shared.isEmpty()
                                ? Uni.createFrom().item(Map.<Long, String>of())
                                : accounts.slugs(shared))
                        .map(slugs -> rows.stream()
                                .map(r -> view(r, names, slugs, caller))
                                .toList()));
    }

    private static AssetViews.Asset view(
            AssetQueries.AssetRow r, Map<Long, String> names, Map<Long, String> slugs, Caller caller) {
        return new AssetViews.Asset(
                r.publicId(),
                r.kind(),
                r.name(),
                names.get(r.ownerId()),
                r.description(),
                r.space(),
                r.path(),
                r.targetType(),
                r.sizeBytes(),
                r.files(),
                r.measuredAt(),
                r.licence(),
                r.source(),
                r.revision(),
                r.visibility(),
                r.accountId() == null ? null : slugs.get(r.accountId()),
                AssetChecks.tagsOf(r.tags()),
                r.createdAt(),
                r.updatedAt(),
                r.ownerId() == caller.userId() || caller.platformAdmin());
    }
}
