package io.crater.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/** Every top-level verb, in the order help lists them; a run builds only the one it needs. */
final class Commands {

    private Commands() {}

    static Map<String, Supplier<Object>> all() {
        Map<String, Supplier<Object>> m = new LinkedHashMap<>();
        m.put("login", AuthCommands.Login::new);
        m.put("logout", AuthCommands.Logout::new);
        m.put("whoami", AuthCommands.Whoami::new);
        m.put("context", ContextCommands::new);
        m.put("account", AccountCommands::new);
        m.put("job", JobCommands::new);
        m.put("ssh-key", ProfileCommands.SshKey::new);
        m.put("token", ProfileCommands.Token::new);
        m.put("credential", CredentialCommands::new);
        m.put("template", TemplateCommands::new);
        m.put("quota", QuotaCommands::new);
        m.put("files", FileCommands::new);
        m.put("dataset", AssetCommands.Datasets::new);
        m.put("model", AssetCommands.Models::new);
        m.put("download", DownloadCommands.Downloads::new);
        m.put("image", ImageCommands::new);
        m.put("tensorboard", TensorboardCommands::new);
        m.put("approval", ApprovalCommands::new);
        m.put("cluster", ClusterCommands::new);
        m.put("usage", UsageCommand::new);
        m.put("budget", BudgetCommands::new);
        m.put("allotment", AllotmentCommands::new);
        m.put("ledger", LedgerCommand::new);
        m.put("statement", StatementCommand::new);
        m.put("price", PriceCommands::new);
        m.put("admin", AdminCommands::new);
        m.put("skills", SkillsCommands::new);
        m.put("completion", CompletionCommands::new);
        m.put("__names", CompletionCommands.Names::new);
        m.put("__warmup", Warmup::new);
        return m;
    }
}
