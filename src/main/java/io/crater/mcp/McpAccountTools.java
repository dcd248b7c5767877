package io.crater.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.crater.account.AccountResource;
import io.crater.accounting.AccountingResource;
import io.crater.identity.MeResource;
import io.crater.platform.ApiException;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** The account tool: quota and usage, member limits and money, from the accounts and accounting endpoints. */
@ApplicationScoped
class McpAccountTools {

    @Inject
    MeResource me;

    @Inject
    AccountResource accounts;

    @Inject
    AccountingResource accounting;

    @Inject
    ObjectMapper json;

    /** The account named, or the caller's default one: quota with usage, limits, and the budget if it has one. */
    Uni<JsonNode> quotaAndUsage(String account) {
        return me.me().flatMap(who -> {
            String slug = account != null ? account : who.defaultAccount();
            if (slug == null) {
                throw ApiException.badRequest(
                        "InvalidRequest", "you have no default account: name one with the argument 'account'", null);
            }
            return accounts.get(slug)
                    .flatMap(detail -> accounts.limits(slug)
                            .flatMap(defaults -> accounts.memberLimits(slug, who.username())
                                    .onFailure(ApiException.class)
                                    .recoverWithNull()
                                    .flatMap(mine -> accounting
                                            .budget(slug)
                                            .onFailure(ApiException.class)
                                            .recoverWithNull()
                                            .map(budget -> {
                                                ObjectNode out = json.createObjectNode()
                                                        .put("account", detail.slug())
                                                        .put("role", detail.myRole());
                                                out.set("quota", json.valueToTree(detail.quota()));
                                                out.set("defaultLimits", json.valueToTree(defaults));
                                                out.set(
                                                        "myLimits",
                                                        mine == null
                                                                ? json.createObjectNode()
                                                                : json.valueToTree(mine));
                                                out.set("budget", json.valueToTree(budget));
                                                return (JsonNode) out;
                                            }))));
        });
    }
}
