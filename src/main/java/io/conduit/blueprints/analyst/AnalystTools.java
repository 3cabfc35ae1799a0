package io.conduit.blueprints.analyst;

import io.conduit.agent.port.ToolBox;
import io.conduit.files.FileStore;
import io.conduit.tools.Redactor;
import io.conduit.tools.Tool;
import io.conduit.tools.ToolExecutor;
import io.conduit.tools.ToolRegistry;
import java.util.List;

/**
 * The analyst's own tools, over the thread's CSV files. Not CDI beans: the default assistant does not see them. They
 * run through a {@link ToolExecutor} of their own (argument schemas checked, timeouts, errors as tool messages).
 */
final class AnalystTools {

    private AnalystTools() {
    }

    static List<Tool> of(FileStore files, AnalystConfig config) {
        return List.of(new LoadRowsTool(files, config), new FilterRowsTool(files, config), new AggregateTool(files, config, false),
                new AggregateTool(files, config, true), new StatisticsTool(files, config), new SearchTool(files, config),
                new CompareTool(files, config));
    }

    static ToolBox box(FileStore files, AnalystConfig config, ToolExecutor.Policy policy, Redactor redactor) {
        return new ToolExecutor(new ToolRegistry(of(files, config)), policy, redactor);
    }
}
