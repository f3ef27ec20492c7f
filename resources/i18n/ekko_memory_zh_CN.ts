<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
<context>
    <name>Accessible</name>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="53"/>
        <source>The workspace shown; opens the list of workspaces to switch to</source>
        <translation>当前显示的工作区；打开可切换的工作区列表</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="56"/>
        <source>Finds memories by the words of their title, content, value, tags and entities. Ctrl+F comes here, Esc clears it</source>
        <translation>按标题、内容、值、标签和实体中的词查找记忆。Ctrl+F 跳到这里，Esc 清空</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="61"/>
        <source>Shows the memories of one scope only</source>
        <translation>只显示某一范围的记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="62"/>
        <source>Active memories only, or every version: superseded, expired and deleted ones too</source>
        <translation>只显示有效的记忆，或显示所有版本：包括已被取代、已过期和已删除的</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="66"/>
        <source>What the agent asked to save or delete, waiting for you (Ctrl+I)</source>
        <translation>智能体请求保存或删除、等待你处理的内容（Ctrl+I）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="69"/>
        <source>Categories and how many memories each holds; choose one to list them</source>
        <translation>各分类及其记忆数量；选择一个即可列出其中的记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="72"/>
        <source>Edit this memory; saving makes a new version (Enter)</source>
        <translation>编辑这条记忆；保存会生成新版本（Enter）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="75"/>
        <source>Move this memory to the trash (Del); Ctrl+Z brings it back</source>
        <translation>把这条记忆移到回收站（Del）；按 Ctrl+Z 可恢复</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="78"/>
        <source>Bring this memory back from the trash</source>
        <translation>从回收站恢复这条记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="79"/>
        <source>Delete this memory and every version of it for good (Shift+Del)</source>
        <translation>永久删除这条记忆及其所有版本（Shift+Del）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="82"/>
        <source>The memory&apos;s value, to read and copy</source>
        <translation>记忆的值，可阅读和复制</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="83"/>
        <source>The memory&apos;s ids, to read and copy</source>
        <translation>记忆的标识，可阅读和复制</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="84"/>
        <source>What happened to this memory and its versions, newest first</source>
        <translation>这条记忆及其版本的经历，最新的在前</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="87"/>
        <source>The conversations with the agent; choose one to read it</source>
        <translation>与智能体的对话；选择一个即可阅读</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="90"/>
        <source>The messages of the conversation chosen</source>
        <translation>所选对话的消息</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="91"/>
        <source>The summaries the agent made of the conversation</source>
        <translation>智能体为这段对话做的摘要</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="94"/>
        <source>Opens the folder of the store</source>
        <translation>打开存储所在的文件夹</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="95"/>
        <source>Opens the stores again</source>
        <translation>重新打开存储</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="97"/>
        <source>Shows the waiting items of one category</source>
        <translation>只显示某一分类中等待处理的条目</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="98"/>
        <source>Approves the items whose box is ticked, after one confirmation</source>
        <translation>确认一次后，批准已勾选的条目</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="101"/>
        <source>Rejects the items whose box is ticked: nothing of them is kept</source>
        <translation>拒绝已勾选的条目：它们的内容都不会保留</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="104"/>
        <source>Approves every item shown, after a confirmation saying what each does</source>
        <translation>批准所有显示的条目，确认时会说明每一项的作用</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="107"/>
        <source>Rejects every item shown: nothing of them is kept</source>
        <translation>拒绝所有显示的条目：它们的内容都不会保留</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="110"/>
        <source>Ticks this item for Approve selected or Reject selected</source>
        <translation>勾选此条目，用于“批准所选”或“拒绝所选”</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="113"/>
        <source>Rejects this item: the memory is left as it is</source>
        <translation>拒绝此条目：记忆保持不变</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="116"/>
        <source>Change what will be saved, then approve it</source>
        <translation>先修改要保存的内容，再批准</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="119"/>
        <source>Approves this item: the agent&apos;s change is made</source>
        <translation>批准此条目：执行智能体的更改</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="123"/>
        <source>A bundle with everything, that Import reads back</source>
        <translation>包含全部内容的数据包，可通过“导入”读回</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="126"/>
        <source>A document to read, in the UI&apos;s language</source>
        <translation>供阅读的文档，使用界面语言</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="127"/>
        <source>A table for a spreadsheet program</source>
        <translation>供电子表格程序使用的表格</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="128"/>
        <source>Which memories go into the file</source>
        <translation>哪些记忆写入文件</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="129"/>
        <source>Also the messages the memories were learned from</source>
        <translation>同时包含记忆所依据的消息</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="132"/>
        <source>The file to write</source>
        <translation>要写入的文件</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="133"/>
        <source>Opens the folder of the written file</source>
        <translation>打开已写入文件所在的文件夹</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="134"/>
        <source>Writes the file</source>
        <translation>写入文件</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="135"/>
        <source>Stops the work at its next safe point</source>
        <translation>在下一个安全点停止工作</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="136"/>
        <source>The bundle file to read</source>
        <translation>要读取的数据包文件</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="137"/>
        <source>How many records of each kind were added, skipped and updated</source>
        <translation>每类记录新增、跳过和更新的数量</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="140"/>
        <source>Reads the bundle into this workspace</source>
        <translation>把数据包读入这个工作区</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="142"/>
        <source>Where the purged words were looked for afterwards, and what was found</source>
        <translation>清除后在哪些地方查找了被清除的词，以及找到了什么</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="145"/>
        <source>Everything the purge would delete, one row each</source>
        <translation>清除会删除的所有内容，每项一行</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="148"/>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="149"/>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="150"/>
        <source>Purge memories of this scope</source>
        <translation>清除此范围的记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="151"/>
        <source>Only memories of this workspace id</source>
        <translation>只包括此工作区标识的记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="152"/>
        <source>Only memories of this user id</source>
        <translation>只包括此用户标识的记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="153"/>
        <source>Only memories in this category</source>
        <translation>只包括此分类中的记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="154"/>
        <source>Only what comes from this conversation</source>
        <translation>只包括来自此对话的内容</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="155"/>
        <source>Only memories holding these words</source>
        <translation>只包括含有这些词的记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="156"/>
        <source>Also delete the migration backups that still hold the purged text</source>
        <translation>同时删除仍含有被清除文本的迁移备份</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="159"/>
        <source>Lists what would go, without deleting anything</source>
        <translation>列出会被删除的内容，但不删除任何东西</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="162"/>
        <source>Deletes for good what the dry run listed</source>
        <translation>永久删除试运行列出的内容</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="164"/>
        <source>A short title for the memory</source>
        <translation>记忆的简短标题</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="165"/>
        <source>The memory in a sentence or more</source>
        <translation>用一句或几句话写下的记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="166"/>
        <source>The broad area: 生活技能, 项目…</source>
        <translation>大的领域：生活技能、项目…</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="167"/>
        <source>What kind of memory: preference, fact, task…</source>
        <translation>记忆的类型：偏好、事实、任务…</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="168"/>
        <source>Where it is filed, parts separated by /</source>
        <translation>归档的位置，各级用 / 分隔</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="169"/>
        <source>What the value is about; one memory per key is current</source>
        <translation>值所描述的内容；每个键只有一条当前记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="172"/>
        <source>The value as JSON</source>
        <translation>以 JSON 表示的值</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="173"/>
        <source>The values, separated by commas</source>
        <translation>各个值，用逗号分隔</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="174"/>
        <source>Ticked for yes</source>
        <translation>勾选表示“是”</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="175"/>
        <source>The value as a number</source>
        <translation>以数字表示的值</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="176"/>
        <source>The value as text</source>
        <translation>以文本表示的值</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="177"/>
        <source>The fields of the value and what each holds</source>
        <translation>值的各字段及其内容</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="178"/>
        <source>Adds a field to the value</source>
        <translation>为值添加一个字段</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="179"/>
        <source>Removes the selected field of the value</source>
        <translation>删除值中所选的字段</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="180"/>
        <source>Who the memory is for: you, this workspace…</source>
        <translation>记忆适用于谁：你、这个工作区…</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="181"/>
        <source>How sure the memory is, from 0 to 1</source>
        <translation>记忆的可信程度，从 0 到 1</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="182"/>
        <source>How much the memory matters, from 0 to 1</source>
        <translation>记忆的重要程度，从 0 到 1</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="183"/>
        <source>Words to find the memory by, separated by commas</source>
        <translation>用来查找记忆的词，用逗号分隔</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="184"/>
        <source>People, places and things it is about, separated by commas</source>
        <translation>记忆涉及的人、地点和事物，用逗号分隔</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="187"/>
        <source>When the memory stops being used</source>
        <translation>记忆何时停止使用</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="188"/>
        <source>The date and time it expires</source>
        <translation>过期的日期和时间</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="189"/>
        <source>Saves the memory</source>
        <translation>保存记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="191"/>
        <source>What compacting freed, file by file</source>
        <translation>压缩按文件释放的空间</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="192"/>
        <source>Rewrites the store files smaller</source>
        <translation>重写存储文件，使其更小</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="193"/>
        <source>Computes the meaning vectors of the memories now</source>
        <translation>立即计算记忆的语义向量</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="196"/>
        <source>The whole address of the database, postgresql://…</source>
        <translation>数据库的完整地址，postgresql://…</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="199"/>
        <source>The computer the database runs on</source>
        <translation>数据库所在的计算机</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="200"/>
        <source>The port the database listens on</source>
        <translation>数据库监听的端口</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="201"/>
        <source>The name of the database</source>
        <translation>数据库的名称</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="202"/>
        <source>The user to sign in as</source>
        <translation>登录所用的用户</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="203"/>
        <source>The user&apos;s password</source>
        <translation>用户的密码</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="204"/>
        <source>Keeps this workspace apart from others in the same database</source>
        <translation>在同一数据库中把这个工作区与其他工作区分开</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="207"/>
        <source>Connects and opens the workspace</source>
        <translation>连接并打开工作区</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="208"/>
        <source>Type what is asked to enable Delete permanently</source>
        <translation>输入所要求的内容后，“永久删除”才可用</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="211"/>
        <source>Also delete the messages the memory was learned from</source>
        <translation>同时删除记忆所依据的消息</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="214"/>
        <source>Deletes for good; this cannot be undone</source>
        <translation>永久删除；无法撤销</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="215"/>
        <source>A category in use, or a new path such as 项目 / 架构</source>
        <translation>已有的分类，或新的路径，例如 项目 / 架构</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="218"/>
        <source>Moves the memories there</source>
        <translation>把记忆移动到那里</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="219"/>
        <source>Makes this version the current one again, as a new version</source>
        <translation>以新版本的方式，让这个版本重新成为当前版本</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="222"/>
        <source>A message the memory was learned from; Enter opens the conversation</source>
        <translation>记忆所依据的一条消息；按 Enter 打开对话</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="225"/>
        <source>A reply that used the memory; Enter opens the conversation</source>
        <translation>用到这条记忆的一条回复；按 Enter 打开对话</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="228"/>
        <source>A version of the memory; Enter shows it</source>
        <translation>记忆的一个版本；按 Enter 显示</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="235"/>
        <source>Category of the items shown</source>
        <translation>所显示条目的分类</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="236"/>
        <source>What compacting did</source>
        <translation>压缩的结果</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="237"/>
        <source>What the purge left</source>
        <translation>清除后的检查结果</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="238"/>
        <source>Database URL</source>
        <translation>数据库地址</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="249"/>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="376"/>
        <source>Closes this window</source>
        <translation>关闭此窗口</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="251"/>
        <source>Closes this window without a change</source>
        <translation>不做更改，关闭此窗口</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="363"/>
        <source>{name} ({shortcut})</source>
        <translation>{name}（{shortcut}）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/accessible.py" line="367"/>
        <source>{name}, in “{place}”</source>
        <translation>{name}，位于“{place}”</translation>
    </message>
</context>
<context>
    <name>AdvancedMenu</name>
    <message>
        <location filename="../../ekko_memory_gui/views/advanced_menu.py" line="16"/>
        <source>&amp;Advanced</source>
        <translation>高级(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/advanced_menu.py" line="31"/>
        <source>Deletes for good what matches filters of ids, dates and words, with a dry run and a report of what is left</source>
        <translation>按标识、日期和词语筛选并永久删除匹配的内容，先试运行，最后报告剩下的内容</translation>
    </message>
</context>
<context>
    <name>AuditTableModel</name>
    <message>
        <location filename="../../ekko_memory_gui/models/audit_model.py" line="35"/>
        <source>{actor} (imported)</source>
        <translation>{actor}（导入）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/audit_model.py" line="48"/>
        <source>When</source>
        <translation>时间</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/audit_model.py" line="52"/>
        <source>Event</source>
        <translation>事件</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/audit_model.py" line="53"/>
        <source>Actor</source>
        <translation>执行者</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/audit_model.py" line="54"/>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
</context>
<context>
    <name>CategoryPane</name>
    <message>
        <location filename="../../ekko_memory_gui/views/category_pane.py" line="48"/>
        <source>Categories</source>
        <translation>分类</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/category_pane.py" line="143"/>
        <source>Counting memories</source>
        <translation>正在统计记忆</translation>
    </message>
</context>
<context>
    <name>CategoryTreeModel</name>
    <message>
        <location filename="../../ekko_memory_gui/models/category_tree_model.py" line="63"/>
        <source>All memories</source>
        <translation>全部记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/category_tree_model.py" line="64"/>
        <source>Sessions</source>
        <translation>会话</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/category_tree_model.py" line="65"/>
        <source>Trash</source>
        <translation>回收站</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/category_tree_model.py" line="141"/>
        <source>Category</source>
        <translation>分类</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/category_tree_model.py" line="141"/>
        <source>Active</source>
        <translation>有效</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/category_tree_model.py" line="180"/>
        <source>{active} active, {total} with history</source>
        <translation>{active} 条有效，含历史共 {total} 条</translation>
    </message>
</context>
<context>
    <name>CompactDialog</name>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/compact_dialog.py" line="31"/>
        <source>Compact stores</source>
        <translation>压缩存储</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/compact_dialog.py" line="39"/>
        <source>Deleted memories, old versions and purged messages leave free space behind in the stores: it is reused for new memories but never given back. Compacting rebuilds each store without it. Your memories do not change. An agent can keep running; its writes wait while a store is being rebuilt.</source>
        <translation>删除的记忆、旧版本和清除的消息会在存储中留下空闲空间：新记忆会重用这些空间，但它们不会归还给磁盘。压缩会重建每个存储，去掉这些空间。你的记忆不会改变。智能体可以继续运行；存储重建期间，它的写入会等待。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/compact_dialog.py" line="48"/>
        <source>On the PostgreSQL server this runs VACUUM FULL on the store&apos;s tables: each table is rewritten into new files, and programs using a table wait until it is done.</source>
        <translation>在 PostgreSQL 服务器上，这会对存储的数据表运行 VACUUM FULL：每张表都会重写到新文件中，正在使用该表的程序要等它完成。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/compact_dialog.py" line="54"/>
        <source>Each database file is rebuilt with SQLite&apos;s VACUUM (it completes or leaves the file as it was) and its write-ahead log is emptied.</source>
        <translation>每个数据库文件都用 SQLite 的 VACUUM 重建（要么完成，要么保持原样），它的预写日志会被清空。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/compact_dialog.py" line="67"/>
        <source>Compact</source>
        <translation>压缩</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/compact_dialog.py" line="86"/>
        <location filename="../../ekko_memory_gui/views/dialogs/compact_dialog.py" line="95"/>
        <source>Compacting…</source>
        <translation>正在压缩…</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/compact_dialog.py" line="88"/>
        <source>Stopping after this store…</source>
        <translation>当前存储完成后停止…</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/compact_dialog.py" line="87"/>
        <source>Compacting</source>
        <translation>正在压缩</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/compact_dialog.py" line="103"/>
        <source>Compacting failed: {error}</source>
        <translation>压缩失败：{error}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/compact_dialog.py" line="118"/>
        <source>Freed {size}.</source>
        <translation>已释放 {size}。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/compact_dialog.py" line="120"/>
        <source>Nothing was compacted.</source>
        <translation>没有压缩任何存储。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/compact_dialog.py" line="123"/>
        <source>Cancelled: the stores not yet started were left as they were; compact again to finish.</source>
        <translation>已取消：尚未开始的存储保持原样；再次压缩即可完成。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/compact_dialog.py" line="149"/>
        <source>{store} store — {location}</source>
        <translation>{store}存储 — {location}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/compact_dialog.py" line="151"/>
        <source>not compacted: cancelled before its turn</source>
        <translation>未压缩：轮到它之前已取消</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/compact_dialog.py" line="154"/>
        <source>skipped: {reason}</source>
        <translation>已跳过：{reason}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/compact_dialog.py" line="159"/>
        <source>not compacted, nothing changed: {reason}</source>
        <translation>未压缩，没有任何改变：{reason}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/compact_dialog.py" line="166"/>
        <source>tables and indexes on the server</source>
        <translation>服务器上的数据表和索引</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/compact_dialog.py" line="166"/>
        <source>all files</source>
        <translation>全部文件</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/compact_dialog.py" line="170"/>
        <source>{what}: {before} → {after}, {freed} freed</source>
        <translation>{what}：{before} → {after}，释放 {freed}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/compact_dialog.py" line="180"/>
        <source>ran: {sql}</source>
        <translation>已执行：{sql}</translation>
    </message>
</context>
<context>
    <name>ConnectDialog</name>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/connect_dialog.py" line="51"/>
        <source>Connect to PostgreSQL</source>
        <translation>连接 PostgreSQL</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/connect_dialog.py" line="60"/>
        <source>Open a memory store kept in a PostgreSQL database (a team&apos;s, or a server agent&apos;s). The workspace store is the schema &lt;namespace&gt;_workspace, your long-term store &lt;namespace&gt;_user. The password is never saved: leave it empty to use ~/.pgpass or PGPASSWORD.</source>
        <translation>打开保存在 PostgreSQL 数据库中的记忆库（团队的，或服务器端智能体的）。工作区存储是 schema &lt;namespace&gt;_workspace，你的长期存储是 &lt;namespace&gt;_user。密码从不保存：留空则使用 ~/.pgpass 或 PGPASSWORD。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/connect_dialog.py" line="81"/>
        <source>empty: ~/.pgpass or PGPASSWORD</source>
        <translation>留空：使用 ~/.pgpass 或 PGPASSWORD</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/connect_dialog.py" line="84"/>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/connect_dialog.py" line="85"/>
        <source>Port</source>
        <translation>端口</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/connect_dialog.py" line="86"/>
        <source>Database</source>
        <translation>数据库</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/connect_dialog.py" line="87"/>
        <source>User</source>
        <translation>用户名</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/connect_dialog.py" line="88"/>
        <source>Password</source>
        <translation>密码</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/connect_dialog.py" line="98"/>
        <source>postgresql://, postgres:// and postgresql+psycopg:// URLs work.</source>
        <translation>支持 postgresql://、postgres:// 和 postgresql+psycopg:// 形式的 URL。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/connect_dialog.py" line="106"/>
        <source>Connection details</source>
        <translation>连接信息</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/connect_dialog.py" line="107"/>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/connect_dialog.py" line="112"/>
        <source>Lower-case letters, digits and _; a team or a test can have its own.</source>
        <translation>小写字母、数字和 _；每个团队或测试可以有自己的命名空间。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/connect_dialog.py" line="115"/>
        <source>Namespace</source>
        <translation>命名空间</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/connect_dialog.py" line="132"/>
        <source>Connect</source>
        <translation>连接</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/connect_dialog.py" line="198"/>
        <source>Enter a database URL.</source>
        <translation>请输入数据库 URL。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/connect_dialog.py" line="200"/>
        <source>Enter the name of the database.</source>
        <translation>请输入数据库名称。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/connect_dialog.py" line="211"/>
        <source>Connecting to {server}… (this can take a few seconds)</source>
        <translation>正在连接 {server}…（可能需要几秒钟）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/connect_dialog.py" line="253"/>
        <source>Could not open the store: {reason}</source>
        <translation>无法打开存储：{reason}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/connect_dialog.py" line="255"/>
        <source>Retry</source>
        <translation>重试</translation>
    </message>
</context>
<context>
    <name>DuplicatesDialog</name>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/duplicates_dialog.py" line="43"/>
        <source>“{a}” ({who_a})
“{b}” ({who_b})
{category} · {similar}% alike</source>
        <translation>“{a}”（{who_a}）
“{b}”（{who_b}）
{category} · 相似度 {similar}%</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/duplicates_dialog.py" line="66"/>
        <source>Duplicates</source>
        <translation>重复的记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/duplicates_dialog.py" line="72"/>
        <source>These memories say nearly the same. Merge keeps the first and folds the second into it (its history stays); “Not duplicates” hides the pair.</source>
        <translation>这些记忆说的几乎是同一件事。“合并”保留第一条，把第二条并入其中（历史仍在）；“不是重复”则不再显示这一对。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/duplicates_dialog.py" line="79"/>
        <source>Pairs of similar memories</source>
        <translation>相似的记忆对</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/duplicates_dialog.py" line="81"/>
        <source>Each pair: both sentences, who wrote each, the category</source>
        <translation>每一对：两条记忆的句子、各自由谁写下、所属分类</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/duplicates_dialog.py" line="86"/>
        <source>No duplicates found.</source>
        <translation>没有发现重复的记忆。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/duplicates_dialog.py" line="93"/>
        <source>Merge</source>
        <translation>合并</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/duplicates_dialog.py" line="96"/>
        <source>Keep the first memory and fold the second into it</source>
        <translation>保留第一条记忆，把第二条并入其中</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/duplicates_dialog.py" line="98"/>
        <source>Not duplicates</source>
        <translation>不是重复</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/duplicates_dialog.py" line="101"/>
        <source>These two are different: stop showing this pair</source>
        <translation>这两条不同：不再显示这一对</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/duplicates_dialog.py" line="103"/>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/duplicates_dialog.py" line="105"/>
        <source>Take back the last merge or dismissal</source>
        <translation>撤销上一次合并或“不是重复”</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/duplicates_dialog.py" line="176"/>
        <source>Merged.</source>
        <translation>已合并。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/duplicates_dialog.py" line="192"/>
        <source>Marked as not duplicates.</source>
        <translation>已标记为不是重复。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/duplicates_dialog.py" line="205"/>
        <source>Merge undone.</source>
        <translation>已撤销合并。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/duplicates_dialog.py" line="208"/>
        <source>Shown again.</source>
        <translation>已重新显示。</translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/export_dialog.py" line="49"/>
        <source>Export memories</source>
        <translation>导出记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/export_dialog.py" line="63"/>
        <source>JSON bundle — everything, for a backup or another machine (import reads it back)</source>
        <translation>JSON 包 —— 包含全部内容，用于备份或迁移到另一台机器（可以导入回来）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/export_dialog.py" line="66"/>
        <source>Markdown — to read</source>
        <translation>Markdown —— 便于阅读</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/export_dialog.py" line="67"/>
        <source>CSV — memories as a table for a spreadsheet</source>
        <translation>CSV —— 记忆表格，可用电子表格打开</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/export_dialog.py" line="80"/>
        <source>All memories</source>
        <translation>全部记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/export_dialog.py" line="83"/>
        <source>This branch: {path}</source>
        <translation>当前分类：{path}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/export_dialog.py" line="87"/>
        <source>Only {scope} scope</source>
        <translation>仅{scope}范围</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/export_dialog.py" line="89"/>
        <source>Include the source messages</source>
        <translation>包含来源消息</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/export_dialog.py" line="100"/>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/export_dialog.py" line="107"/>
        <source>Format</source>
        <translation>格式</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/export_dialog.py" line="108"/>
        <source>What</source>
        <translation>内容</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/export_dialog.py" line="96"/>
        <location filename="../../ekko_memory_gui/views/dialogs/export_dialog.py" line="110"/>
        <source>Where</source>
        <translation>位置</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/export_dialog.py" line="114"/>
        <source>Open folder</source>
        <translation>打开文件夹</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/export_dialog.py" line="120"/>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/export_dialog.py" line="160"/>
        <source>Export to</source>
        <translation>导出到</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/export_dialog.py" line="172"/>
        <location filename="../../ekko_memory_gui/views/dialogs/export_dialog.py" line="209"/>
        <source>Exporting…</source>
        <translation>正在导出…</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/export_dialog.py" line="172"/>
        <source>Exporting</source>
        <translation>正在导出</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/export_dialog.py" line="181"/>
        <source>Replace the file?</source>
        <translation>替换这个文件？</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/export_dialog.py" line="182"/>
        <source>{path} already exists. Replace it with this export?</source>
        <translation>{path} 已经存在。要用这次导出替换它吗？</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/export_dialog.py" line="183"/>
        <source>Replace</source>
        <translation>替换</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/export_dialog.py" line="202"/>
        <source>Nothing was exported: choose a file to export to.</source>
        <translation>没有导出任何内容：请选择要导出到的文件。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/export_dialog.py" line="204"/>
        <source>Nothing was exported: {path} was kept as it is.</source>
        <translation>没有导出任何内容：{path} 保持原样。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/export_dialog.py" line="254"/>
        <source>The export failed: {error}</source>
        <translation>导出失败：{error}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/export_dialog.py" line="239"/>
        <source>Cancelled; no file was written.</source>
        <translation>已取消，没有写入任何文件。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/export_dialog.py" line="242"/>
        <source>Exported {counts} to {path} ({size} KB, readable only by you).</source>
        <translation>已导出 {counts} 到 {path}（{size} KB，仅你可读）。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/export_dialog.py" line="266"/>
        <source>the {store} store was skipped: {reason}</source>
        <translation>已跳过{store}存储：{reason}</translation>
    </message>
</context>
<context>
    <name>FirstRunPanel</name>
    <message>
        <location filename="../../ekko_memory_gui/views/first_run.py" line="110"/>
        <location filename="../../ekko_memory_gui/views/first_run.py" line="117"/>
        <source>Welcome to Ekko Memory</source>
        <translation>欢迎使用 Ekko Memory</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/first_run.py" line="121"/>
        <source>Ekko is your AI agent&apos;s long-term memory, kept on this computer. When you tell your agent “I don&apos;t eat cilantro” or “reply in English from now on”, it remembers that here, and uses it in later conversations. You can read, change and delete every memory in this window; changes the agent is not sure about wait in the Inbox for you.</source>
        <translation>Ekko 是你的 AI 助手的长期记忆，保存在这台电脑上。当你告诉助手“我不吃香菜”或“以后用英文回答”，它会记在这里，并在以后的对话中用上。你可以在这个窗口里查看、修改和删除每一条记忆；助手拿不准的改动会在收件箱里等你确认。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/first_run.py" line="130"/>
        <source>Command for Hermes Agent</source>
        <translation>Hermes Agent 的安装命令</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/first_run.py" line="132"/>
        <source>Configuration for MCP clients</source>
        <translation>MCP 客户端的配置</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/first_run.py" line="135"/>
        <source>Open the demo</source>
        <translation>打开示例</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/first_run.py" line="139"/>
        <source>A sample workspace with memories, conversations and inbox items</source>
        <translation>一个示例工作区，包含记忆、对话和待确认事项</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/first_run.py" line="142"/>
        <source>Add a memory yourself</source>
        <translation>自己添加一条记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/first_run.py" line="153"/>
        <source>Connect your agent</source>
        <translation>连接你的助手</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/first_run.py" line="157"/>
        <source>Hermes Agent: run this once in a terminal (in Hermes&apos;s own environment), then start Hermes again:</source>
        <translation>Hermes Agent：在终端里（Hermes 自己的环境中）运行一次下面的命令，然后重新启动 Hermes：</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/first_run.py" line="166"/>
        <source>Claude Desktop, Cursor and other MCP clients: add this to the client&apos;s MCP configuration (Claude Desktop: claude_desktop_config.json; Cursor: .cursor/mcp.json), then restart the client:</source>
        <translation>Claude Desktop、Cursor 等 MCP 客户端：把下面的内容加入客户端的 MCP 配置（Claude Desktop：claude_desktop_config.json；Cursor：.cursor/mcp.json），然后重启客户端：</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/first_run.py" line="176"/>
        <source>Help ▸ User guide walks through the rest: the inbox, editing and forgetting, export and backups.</source>
        <translation>其余内容见“帮助 ▸ 用户指南”：收件箱、修改和遗忘、导出和备份。</translation>
    </message>
</context>
<context>
    <name>ForgetDialog</name>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/forget_dialog.py" line="57"/>
        <source>Delete all my memories</source>
        <translation>删除我的全部记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/forget_dialog.py" line="59"/>
        <source>This deletes every memory you and the agent saved, with all their versions, in this workspace and in your user store.</source>
        <translation>这会删除你和智能体保存的每一条记忆及其所有版本，包括本工作区和你的用户存储中的。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/forget_dialog.py" line="63"/>
        <source>Forget the selected memories</source>
        <translation>忘掉所选的记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/forget_dialog.py" line="65"/>
        <source>This forgets the selected memories, with all their versions and the conversation text they came from.</source>
        <translation>这会忘掉所选的记忆、它们的所有版本，以及它们来自的对话内容。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/forget_dialog.py" line="69"/>
        <source>Forget everything about…</source>
        <translation>忘掉关于……的一切</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/forget_dialog.py" line="71"/>
        <source>Type a word or a name: every memory that mentions it goes, with all its versions, and the conversation text and summaries that mention it.</source>
        <translation>输入一个词或名字：提到它的每条记忆及其所有版本都会删除，提到它的对话内容和摘要也会删除。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/forget_dialog.py" line="79"/>
        <source>A word, for example cilantro</source>
        <translation>一个词，例如 香菜</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/forget_dialog.py" line="80"/>
        <source>Word to forget</source>
        <translation>要忘掉的词</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/forget_dialog.py" line="82"/>
        <source>Every memory and message that mentions this word is forgotten</source>
        <translation>提到这个词的每条记忆和消息都会被忘掉</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/forget_dialog.py" line="84"/>
        <source>Preview</source>
        <translation>预览</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/forget_dialog.py" line="87"/>
        <source>Counts what would be forgotten; nothing changes yet</source>
        <translation>统计会忘掉多少内容；此时不做任何更改</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/forget_dialog.py" line="99"/>
        <source>Also the conversation text and the summaries that mention it</source>
        <translation>同时删除提到它的对话内容和摘要</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/forget_dialog.py" line="104"/>
        <source>On by default: the words leave the conversation log too</source>
        <translation>默认勾选：这些词也会从对话记录中删除</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/forget_dialog.py" line="128"/>
        <source>Delete all</source>
        <translation>全部删除</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/forget_dialog.py" line="128"/>
        <source>Forget</source>
        <translation>忘掉</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/forget_dialog.py" line="134"/>
        <source>Removes for good what the preview counts; this cannot be undone</source>
        <translation>永久删除预览中统计的内容；无法撤销</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/forget_dialog.py" line="157"/>
        <source>Type the word again to confirm:</source>
        <translation>再输入一次这个词以确认：</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/forget_dialog.py" line="159"/>
        <source>Type {word} to confirm:</source>
        <translation>输入 {word} 以确认：</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/forget_dialog.py" line="163"/>
        <source>Forget enables once this matches; nothing is removed before</source>
        <translation>输入一致后“忘掉”按钮才可用；在此之前不会删除任何内容</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/forget_dialog.py" line="179"/>
        <source>Type a word first.</source>
        <translation>请先输入一个词。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/forget_dialog.py" line="184"/>
        <source>Counting…</source>
        <translation>正在统计……</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/forget_dialog.py" line="210"/>
        <source>and {n} more</source>
        <translation>还有 {n} 条</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/forget_dialog.py" line="249"/>
        <source>Nothing matches: there is nothing to forget.</source>
        <translation>没有匹配的内容：没有什么需要忘掉。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/forget_dialog.py" line="251"/>
        <source>1 memory</source>
        <translation>1 条记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/forget_dialog.py" line="253"/>
        <source>{n} memories</source>
        <translation>{n} 条记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/forget_dialog.py" line="256"/>
        <source>{memories} ({n} versions)</source>
        <translation>{memories}（{n} 个版本）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/forget_dialog.py" line="260"/>
        <source>1 message</source>
        <translation>1 条消息</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/forget_dialog.py" line="262"/>
        <source>{n} messages</source>
        <translation>{n} 条消息</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/forget_dialog.py" line="265"/>
        <source>1 summary</source>
        <translation>1 份摘要</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/forget_dialog.py" line="267"/>
        <source>{n} summaries</source>
        <translation>{n} 份摘要</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/forget_dialog.py" line="269"/>
        <source>{memories}, {messages}, {summaries}</source>
        <translation>{memories}、{messages}、{summaries}</translation>
    </message>
</context>
<context>
    <name>HardDeleteDialog</name>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/hard_delete_dialog.py" line="52"/>
        <location filename="../../ekko_memory_gui/views/dialogs/hard_delete_dialog.py" line="79"/>
        <source>Delete permanently</source>
        <translation>永久删除</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/hard_delete_dialog.py" line="67"/>
        <source>Type {word} to confirm:</source>
        <translation>输入 {word} 以确认：</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/hard_delete_dialog.py" line="103"/>
        <source>This removes “{title}” for good:
{versions}

Every version above, its search index entries and usage records go, and its text is scrubbed from the audit history and the file. This cannot be undone.</source>
        <translation>这会永久删除“{title}”：
{versions}

上面的每个版本、它的搜索索引和使用记录都会被删除，它的文字也会从审计历史和数据库文件中抹去。此操作无法撤销。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/hard_delete_dialog.py" line="111"/>
        <source>Approving this request deletes for good:
{memories}</source>
        <translation>批准这项请求会永久删除：
{memories}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/hard_delete_dialog.py" line="113"/>
        <source>Approving these {n} items deletes for good:
{memories}</source>
        <translation>批准这 {n} 项会永久删除：
{memories}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/hard_delete_dialog.py" line="121"/>
        <source>Every version, its search index entries and usage records go, and its text is scrubbed from the audit history and the file. This cannot be undone.</source>
        <translation>它的每个版本、搜索索引条目和使用记录都会删除，文字也会从审计历史和文件中抹去。此操作无法撤销。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/hard_delete_dialog.py" line="61"/>
        <source>Also delete the source messages (summaries built on them are marked stale)</source>
        <translation>同时删除来源消息（基于它们的摘要会标记为过时）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/hard_delete_dialog.py" line="69"/>
        <source>Type the title “{title}” or {word} to confirm:</source>
        <translation>输入标题“{title}”或 {word} 以确认：</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/hard_delete_dialog.py" line="116"/>
        <source>You approve {n} items; {k} of them delete for good:
{memories}</source>
        <translation>你要批准 {n} 项；其中 {k} 项会永久删除：
{memories}</translation>
    </message>
</context>
<context>
    <name>ImportDialog</name>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/import_dialog.py" line="41"/>
        <location filename="../../ekko_memory_gui/views/dialogs/import_dialog.py" line="93"/>
        <source>Import a bundle</source>
        <translation>导入数据包</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/import_dialog.py" line="47"/>
        <source>Reads a JSON bundle made by Export. Memories keep their ids: what is already here is skipped, a newer version of the same memory supersedes the older one, and importing the same bundle twice changes nothing.</source>
        <translation>读取由“导出”生成的 JSON 包。记忆保留原来的标识：已存在的会跳过，同一记忆的较新版本会取代旧版本，同一个包导入两次不会有任何变化。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/import_dialog.py" line="55"/>
        <source>Bundle to import</source>
        <translation>要导入的数据包</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/import_dialog.py" line="56"/>
        <source>a .json bundle</source>
        <translation>一个 .json 数据包</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/import_dialog.py" line="57"/>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/import_dialog.py" line="65"/>
        <source>Added</source>
        <translation>新增</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/import_dialog.py" line="65"/>
        <source>Skipped</source>
        <translation>跳过</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/import_dialog.py" line="65"/>
        <source>Updated</source>
        <translation>更新时间</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/import_dialog.py" line="78"/>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/import_dialog.py" line="93"/>
        <source>Ekko Memory bundle (*.json)</source>
        <translation>Ekko Memory 数据包 (*.json)</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/import_dialog.py" line="100"/>
        <source>Importing</source>
        <translation>正在导入</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/import_dialog.py" line="108"/>
        <source>There is no file at {path}.</source>
        <translation>{path} 处没有文件。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/import_dialog.py" line="110"/>
        <source>Choose a bundle file first.</source>
        <translation>请先选择一个数据包文件。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/import_dialog.py" line="187"/>
        <source>{n} records were in the bundle more than once; each was read once.</source>
        <translation>备份包中有 {n} 条记录重复出现；每条只读取了一次。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/import_dialog.py" line="100"/>
        <location filename="../../ekko_memory_gui/views/dialogs/import_dialog.py" line="115"/>
        <source>Importing…</source>
        <translation>正在导入…</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/import_dialog.py" line="123"/>
        <source>Nothing was imported: {error}</source>
        <translation>没有导入任何内容：{error}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/import_dialog.py" line="147"/>
        <source>Cancelled: nothing was imported; your stores are as they were.</source>
        <translation>已取消：没有导入任何内容，你的存储保持原样。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/import_dialog.py" line="149"/>
        <source>Cancelled: the {done} store was imported; the {left} store was not and is as it was. Import the bundle again to finish: what is already here is skipped.</source>
        <translation>已取消：{done}存储已导入；{left}存储没有导入，保持原样。再次导入这个数据包即可完成：已有的内容会被跳过。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/import_dialog.py" line="173"/>
        <source>Added {n} memories, skipped {s} already here.</source>
        <translation>新增 {n} 条记忆，跳过 {s} 条已存在的。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/import_dialog.py" line="179"/>
        <source>{n} memories were superseded by a newer version of the same key.</source>
        <translation>{n} 条记忆被同一键的较新版本取代。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/import_dialog.py" line="67"/>
        <source>What the import did</source>
        <translation>导入的结果</translation>
    </message>
</context>
<context>
    <name>InboxBatch</name>
    <message>
        <location filename="../../ekko_memory_gui/views/inbox_batch_text.py" line="52"/>
        <source>{n} of them save or change a memory.</source>
        <translation>其中 {n} 项会保存或修改记忆。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/inbox_batch_text.py" line="54"/>
        <source>1 of them saves or changes a memory.</source>
        <translation>其中 1 项会保存或修改记忆。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/inbox_batch_text.py" line="58"/>
        <source>{n} of them delete memories.</source>
        <translation>其中 {n} 项会删除记忆。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/inbox_batch_text.py" line="60"/>
        <source>1 of them deletes memories.</source>
        <translation>其中 1 项会删除记忆。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/inbox_batch_text.py" line="66"/>
        <source>{n} of them hold sensitive personal data ({kinds}): approving saves it in your memory, where the agent can read it.</source>
        <translation>其中 {n} 项含有敏感个人信息（{kinds}）：批准后会保存到你的记忆里，智能体可以读取。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/inbox_batch_text.py" line="72"/>
        <source>1 of them holds sensitive personal data ({kinds}): approving saves it in your memory, where the agent can read it.</source>
        <translation>其中 1 项含有敏感个人信息（{kinds}）：批准后会保存到你的记忆里，智能体可以读取。</translation>
    </message>
</context>
<context>
    <name>InboxButton</name>
    <message>
        <location filename="../../ekko_memory_gui/views/inbox_button.py" line="24"/>
        <source>Inbox, {n} waiting</source>
        <translation>收件箱，{n} 项待处理</translation>
    </message>
</context>
<context>
    <name>InboxView</name>
    <message>
        <location filename="../../ekko_memory_gui/views/inbox_view.py" line="60"/>
        <source>Inbox</source>
        <translation>收件箱</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/inbox_view.py" line="67"/>
        <source>Approve all shown</source>
        <translation>批准显示的全部</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/inbox_view.py" line="69"/>
        <source>Reject all shown</source>
        <translation>拒绝显示的全部</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/inbox_view.py" line="71"/>
        <source>Approve selected</source>
        <translation>批准所选</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/inbox_view.py" line="73"/>
        <source>Reject selected</source>
        <translation>拒绝所选</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/inbox_view.py" line="84"/>
        <source>Category</source>
        <translation>分类</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/inbox_view.py" line="105"/>
        <source>Waiting items</source>
        <translation>待处理事项</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/inbox_view.py" line="108"/>
        <source>Nothing waits for you.

When the agent wants to keep something you did not explicitly ask it to remember, touches sensitive data, overwrites a memory it was sure about, or wants to delete something for good, it asks here first.</source>
        <translation>没有等待你处理的事项。

当智能体想记住你没有明确要求记住的内容、涉及敏感信息、要覆盖一条它很确定的记忆，或想永久删除某些内容时，会先在这里征求你的同意。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/inbox_view.py" line="134"/>
        <source>Loading the inbox</source>
        <translation>正在加载收件箱</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/inbox_view.py" line="151"/>
        <source>All categories</source>
        <translation>全部分类</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/inbox_view.py" line="160"/>
        <source>{n} waiting</source>
        <translation>{n} 项待处理</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/inbox_view.py" line="194"/>
        <source>Deciding</source>
        <translation>正在处理</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/inbox_view.py" line="213"/>
        <source>Approve deletion</source>
        <translation>批准删除</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/inbox_view.py" line="214"/>
        <source>These memories will be deleted{how}:
{titles}</source>
        <translation>以下记忆将被删除{how}：
{titles}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/inbox_view.py" line="215"/>
        <source> permanently (this cannot be undone)</source>
        <translation>（永久，无法撤销）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/inbox_view.py" line="220"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/inbox_view.py" line="257"/>
        <source>personal data</source>
        <translation>个人数据</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/inbox_view.py" line="318"/>
        <source>Already decided</source>
        <translation>已经处理过了</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/inbox_view.py" line="327"/>
        <source>Save your changes as a new version of the approved memory? Otherwise they are discarded.</source>
        <translation>要把你的修改保存为这条已批准记忆的新版本吗？否则修改将被丢弃。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/inbox_view.py" line="330"/>
        <source>Save as new version</source>
        <translation>保存为新版本</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/inbox_view.py" line="336"/>
        <source>Your changes were not saved.</source>
        <translation>你的修改没有保存。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/inbox_view.py" line="344"/>
        <source>you, in another program (such as the command line)</source>
        <translation>你（在另一个程序中，例如命令行）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/inbox_view.py" line="350"/>
        <source>“{name}” was withdrawn while you were editing it: {why}.</source>
        <translation>你编辑“{name}”时，它已被撤回：{why}。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/inbox_view.py" line="353"/>
        <source>“{name}” was approved by {who} while you were editing it.</source>
        <translation>在你编辑期间，“{name}”已由{who}批准。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/inbox_view.py" line="355"/>
        <source>“{name}” was rejected by {who} while you were editing it.</source>
        <translation>在你编辑期间，“{name}”已由{who}拒绝。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/inbox_view.py" line="358"/>
        <source>“{name}” is no longer waiting ({status}) — it changed while you were editing it.</source>
        <translation>“{name}”已不再等待确认（{status}）：在你编辑期间它发生了变化。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/inbox_view.py" line="369"/>
        <source>Your changes were not saved</source>
        <translation>你的修改没有保存</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/inbox_view.py" line="408"/>
        <source>Approve</source>
        <translation>批准</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/inbox_view.py" line="408"/>
        <source>Reject</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/inbox_view.py" line="410"/>
        <source>{verb} {n} items?</source>
        <translation>{verb} {n} 项？</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/inbox_view.py" line="410"/>
        <source>{verb} this item?</source>
        <translation>{verb}这一项？</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/inbox_view.py" line="427"/>
        <source>{n} of them delete memories.</source>
        <translation>其中 {n} 项会删除记忆。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/inbox_view.py" line="436"/>
        <source>Some decisions failed</source>
        <translation>部分处理失败</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="34"/>
        <source>Main</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="48"/>
        <source>Workspace</source>
        <translation>工作区</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="56"/>
        <source>Search memories</source>
        <translation>搜索记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="64"/>
        <source>Scope</source>
        <translation>范围</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="65"/>
        <source>All scopes</source>
        <translation>全部范围</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="73"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="74"/>
        <source>Active</source>
        <translation>有效</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="75"/>
        <source>Including history</source>
        <translation>包含历史</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="77"/>
        <source>Including history shows superseded, expired and deleted versions, greyed</source>
        <translation>包含历史时，会以灰色显示被取代、过期和已删除的版本</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="88"/>
        <location filename="../../ekko_memory_gui/views/main_window.py" line="375"/>
        <source>New memory</source>
        <translation>新建记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="93"/>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="95"/>
        <source>Inbox</source>
        <translation>收件箱</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="101"/>
        <source>Refresh</source>
        <translation>刷新</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="109"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="111"/>
        <source>Open workspace…</source>
        <translation>打开工作区…</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="116"/>
        <location filename="../../ekko_memory_gui/views/store_switching.py" line="46"/>
        <source>Opening a workspace</source>
        <translation>正在打开工作区</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="121"/>
        <source>Connect to PostgreSQL…</source>
        <translation>连接 PostgreSQL…</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="125"/>
        <source>Open recent</source>
        <translation>最近打开</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="128"/>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="132"/>
        <source>Import…</source>
        <translation>导入…</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="135"/>
        <source>Purge…</source>
        <translation>彻底清除…</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="139"/>
        <source>Compact stores…</source>
        <translation>压缩存储…</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="144"/>
        <source>Semantic index…</source>
        <translation>语义索引…</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="150"/>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="155"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/help_menus.py" line="44"/>
        <location filename="../../ekko_memory_gui/views/help_menus.py" line="49"/>
        <location filename="../../ekko_memory_gui/views/help_menus.py" line="77"/>
        <location filename="../../ekko_memory_gui/views/help_menus.py" line="105"/>
        <source>User guide</source>
        <translation>用户指南</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/help_menus.py" line="64"/>
        <source>Show built-in memories</source>
        <translation>显示内置记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/help_menus.py" line="68"/>
        <source>Recipes and cooking tips that ship with Ekko; they are not your memories</source>
        <translation>Ekko 自带的菜谱和烹饪技巧；它们不是你的记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/help_menus.py" line="80"/>
        <location filename="../../ekko_memory_gui/views/help_menus.py" line="163"/>
        <location filename="../../ekko_memory_gui/views/help_menus.py" line="166"/>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/help_menus.py" line="82"/>
        <source>Open the demo</source>
        <translation>打开示例</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/help_menus.py" line="98"/>
        <source>Opening the user guide</source>
        <translation>正在打开用户指南</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/help_menus.py" line="106"/>
        <source>The user guide is not installed with this copy of Ekko Memory; it is docs/user-guide.md in the source.</source>
        <translation>这份 Ekko Memory 没有附带用户指南；它在源代码的 docs/user-guide.md 中。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/help_menus.py" line="140"/>
        <source>{keys} — Search</source>
        <translation>{keys} — 搜索</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/help_menus.py" line="151"/>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="156"/>
        <location filename="../../ekko_memory_gui/views/main_window.py" line="400"/>
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/help_menus.py" line="153"/>
        <source>Esc — Clear the search</source>
        <translation>Esc — 清空搜索</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/help_menus.py" line="155"/>
        <source>Tab — Next pane; arrows move inside a list or the tree</source>
        <translation>Tab — 下一个窗格；方向键在列表或分类树中移动</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/help_menus.py" line="173"/>
        <source>Preparing the demo…</source>
        <translation>正在准备示例…</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/help_menus.py" line="177"/>
        <source>Opening the demo</source>
        <translation>正在打开示例</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="162"/>
        <source>Edit memory</source>
        <translation>编辑记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="171"/>
        <source>Move to trash</source>
        <translation>移到回收站</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="179"/>
        <source>Delete permanently…</source>
        <translation>永久删除…</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="189"/>
        <source>Restore from trash</source>
        <translation>从回收站恢复</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="195"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="196"/>
        <source>Find</source>
        <translation>查找</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="204"/>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="208"/>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="222"/>
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="218"/>
        <source>Theme</source>
        <translation>主题</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="223"/>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="224"/>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="232"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="233"/>
        <location filename="../../ekko_memory_gui/views/main_window.py" line="458"/>
        <source>About Ekko Memory</source>
        <translation>关于 Ekko Memory</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_menus.py" line="235"/>
        <source>About</source>
        <translation>关于</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/store_switching.py" line="40"/>
        <source>No recent workspaces</source>
        <translation>没有最近的工作区</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/store_switching.py" line="61"/>
        <source>Open workspace</source>
        <translation>打开工作区</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/store_switching.py" line="81"/>
        <location filename="../../ekko_memory_gui/views/store_switching.py" line="104"/>
        <location filename="../../ekko_memory_gui/views/store_switching.py" line="112"/>
        <source>Connecting to PostgreSQL</source>
        <translation>正在连接 PostgreSQL</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_window.py" line="245"/>
        <location filename="../../ekko_memory_gui/views/main_window.py" line="410"/>
        <location filename="../../ekko_memory_gui/views/store_switching.py" line="95"/>
        <source>Reading store status</source>
        <translation>正在读取存储状态</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/store_switching.py" line="137"/>
        <source>Opening the store again</source>
        <translation>正在重新打开存储</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_window.py" line="344"/>
        <source>Opening a message</source>
        <translation>正在打开消息</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/file_dialogs.py" line="33"/>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/file_dialogs.py" line="42"/>
        <source>Import</source>
        <translation>导入</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/file_dialogs.py" line="51"/>
        <source>Purge</source>
        <translation>彻底清除</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/file_dialogs.py" line="60"/>
        <source>Compact stores</source>
        <translation>压缩存储</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/file_dialogs.py" line="74"/>
        <source>Semantic index</source>
        <translation>语义索引</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_window.py" line="379"/>
        <source>Editing a memory</source>
        <translation>正在编辑记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_window.py" line="382"/>
        <source>Deleting a memory</source>
        <translation>正在删除记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_window.py" line="386"/>
        <source>Deleting a memory permanently</source>
        <translation>正在永久删除记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_window.py" line="390"/>
        <source>Restoring a memory</source>
        <translation>正在恢复记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_window.py" line="393"/>
        <source>Reverting a memory</source>
        <translation>正在回退记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_window.py" line="396"/>
        <source>Undoing</source>
        <translation>正在撤销</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_window.py" line="451"/>
        <source>Restoring the view</source>
        <translation>正在恢复视图</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/main_window.py" line="460"/>
        <source>Ekko Memory {version}

Local, auditable long-term memory for AI agents. Everything stays in SQLite files on this machine, or in the PostgreSQL database you connect to.</source>
        <translation>Ekko Memory {version}

为 AI 智能体提供的本地、可审计的长期记忆。所有数据都保存在本机的 SQLite 文件中，或你连接的 PostgreSQL 数据库中。</translation>
    </message>
</context>
<context>
    <name>MarkdownExport</name>
    <message>
        <location filename="../../ekko_memory_gui/views/markdown_words.py" line="22"/>
        <source>Ekko Memory export</source>
        <translation>Ekko Memory 导出</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/markdown_words.py" line="23"/>
        <source>Exported {when}.</source>
        <translation>导出于 {when}。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/markdown_words.py" line="24"/>
        <source>{n} selected memories.</source>
        <translation>选中的 {n} 条记忆。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/markdown_words.py" line="25"/>
        <source>No memories.</source>
        <translation>没有记忆。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/markdown_words.py" line="26"/>
        <source>updated {when}</source>
        <translation>更新于 {when}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/markdown_words.py" line="27"/>
        <source>expires {when}</source>
        <translation>过期于 {when}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/markdown_words.py" line="28"/>
        <source>confidence {n}</source>
        <translation>置信度 {n}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/markdown_words.py" line="29"/>
        <source>importance {n}</source>
        <translation>重要性 {n}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/markdown_words.py" line="30"/>
        <source>tags: {list}</source>
        <translation>标签：{list}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/markdown_words.py" line="31"/>
        <source>entities: {list}</source>
        <translation>实体：{list}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/markdown_words.py" line="32"/>
        <source>Uncategorized</source>
        <translation>未分类</translation>
    </message>
</context>
<context>
    <name>MatchReason</name>
    <message>
        <location filename="../../ekko_memory_gui/models/match_reason.py" line="33"/>
        <source>title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/match_reason.py" line="34"/>
        <source>content</source>
        <translation>内容</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/match_reason.py" line="35"/>
        <source>key</source>
        <translation>键</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/match_reason.py" line="36"/>
        <source>value</source>
        <translation>值</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/match_reason.py" line="40"/>
        <source>Found in its tags or entities, or by a word that means the same</source>
        <translation>在标签或实体中找到，或通过同义词找到</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/match_reason.py" line="44"/>
        <source>Found in: {fields}</source>
        <translation>匹配位置：{fields}</translation>
    </message>
</context>
<context>
    <name>MemoryActions</name>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_actions.py" line="84"/>
        <source>Undo new memory “{title}”</source>
        <translation>撤销新建“{title}”</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_actions.py" line="138"/>
        <source>This memory was changed meanwhile (now “{title}”). Your changes are still here: save again to apply them to the newest version.</source>
        <translation>这条记忆在此期间已被修改（现在是“{title}”）。你的修改仍保留在这里：再次保存即可把它们应用到最新版本上。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_actions.py" line="147"/>
        <source>Nothing changed.</source>
        <translation>没有任何改动。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_actions.py" line="153"/>
        <source>Undo edit of “{title}”</source>
        <translation>撤销对“{title}”的编辑</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_actions.py" line="159"/>
        <source>Saved as a new version; the earlier one is in the history.</source>
        <translation>已保存为新版本；之前的版本保留在历史中。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_actions.py" line="166"/>
        <source>Revert</source>
        <translation>回退</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_actions.py" line="173"/>
        <source>Undo revert</source>
        <translation>撤销回退</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_actions.py" line="194"/>
        <source>This is an earlier version of “{title}”: select its current version to move the memory to the trash.</source>
        <translation>这是“{title}”的一个早期版本：请选中它的当前版本，再把这条记忆移到回收站。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_actions.py" line="200"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_actions.py" line="57"/>
        <source>Global memories ship with the app and are read-only.</source>
        <translation>全局记忆随应用提供，是只读的。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_actions.py" line="65"/>
        <source>This memory no longer exists: it was deleted permanently.</source>
        <translation>这条记忆已不存在：它已被永久删除。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_actions.py" line="100"/>
        <source>Edit memory</source>
        <translation>编辑记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_actions.py" line="107"/>
        <source>This is an earlier version of “{title}”: edit its current version, or use Revert to this.</source>
        <translation>这是“{title}”的一个早期版本：请编辑它的当前版本，或使用“回退到此版本”。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_actions.py" line="111"/>
        <source>“{title}” is in the trash: restore it first.</source>
        <translation>“{title}”在回收站中：请先恢复它。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_actions.py" line="206"/>
        <source>Undo delete of “{title}”</source>
        <translation>撤销删除“{title}”</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_actions.py" line="211"/>
        <source>Moved to the trash. Ctrl+Z brings it back.</source>
        <translation>已移到回收站。按 Ctrl+Z 可以恢复。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_actions.py" line="220"/>
        <location filename="../../ekko_memory_gui/views/memory_actions.py" line="226"/>
        <source>Delete permanently</source>
        <translation>永久删除</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_actions.py" line="237"/>
        <source>Deleting permanently…</source>
        <translation>正在永久删除…</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_actions.py" line="241"/>
        <source>Deleted permanently: {n} versions.</source>
        <translation>已永久删除：{n} 个版本。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_actions.py" line="247"/>
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_actions.py" line="250"/>
        <source>Undo restore</source>
        <translation>撤销恢复</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_actions.py" line="253"/>
        <source>Restored.</source>
        <translation>已恢复。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_actions.py" line="266"/>
        <source>Not undone: the memory has been deleted permanently since.</source>
        <translation>未撤销：这条记忆此后已被永久删除。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_actions.py" line="269"/>
        <source>Not undone: {reason}</source>
        <translation>未撤销：{reason}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_actions.py" line="274"/>
        <source>Undone.</source>
        <translation>已撤销。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_actions.py" line="296"/>
        <source>“{title}” changed again since; its history can bring back an older version</source>
        <translation>“{title}”之后又被修改过；可以在它的版本历史中恢复旧版本</translation>
    </message>
</context>
<context>
    <name>MemoryControls</name>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_controls.py" line="36"/>
        <source>Forget everything about…</source>
        <translation>忘掉关于……的一切</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_controls.py" line="41"/>
        <source>Forgets a word or the selected memories everywhere: memories, their versions, and the conversation text and summaries that mention it</source>
        <translation>在所有地方忘掉一个词或所选的记忆：记忆、它们的版本，以及提到它的对话内容和摘要</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_controls.py" line="46"/>
        <source>Delete all my memories…</source>
        <translation>删除我的全部记忆……</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_controls.py" line="49"/>
        <location filename="../../ekko_memory_gui/views/memory_controls.py" line="112"/>
        <source>Pause memory</source>
        <translation>暂停记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_controls.py" line="54"/>
        <source>While paused, the agent neither reads nor writes memory</source>
        <translation>暂停期间，智能体既不读取也不写入记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_controls.py" line="57"/>
        <source>Duplicates…</source>
        <translation>重复的记忆……</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_controls.py" line="83"/>
        <source>Reading whether memory is paused</source>
        <translation>正在读取记忆是否已暂停</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_controls.py" line="95"/>
        <source>Pausing memory</source>
        <translation>正在暂停记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_controls.py" line="102"/>
        <source>Memory paused: the agent neither reads nor writes it.</source>
        <translation>记忆已暂停：智能体既不读取也不写入。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_controls.py" line="104"/>
        <source>Memory resumed: the agent reads and writes it again.</source>
        <translation>记忆已恢复：智能体重新读取和写入。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_controls.py" line="112"/>
        <source>Resume memory</source>
        <translation>恢复记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_controls.py" line="128"/>
        <location filename="../../ekko_memory_gui/views/memory_controls.py" line="134"/>
        <source>Forgetting</source>
        <translation>正在忘掉</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_controls.py" line="140"/>
        <source>Deleting all memories</source>
        <translation>正在删除全部记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_controls.py" line="173"/>
        <source>What it would forget changed since the preview; here are the new counts. Confirm again.</source>
        <translation>预览之后要忘掉的内容有了变化；这是新的统计，请再次确认。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_controls.py" line="185"/>
        <source>Forgotten: {counts}.</source>
        <translation>已忘记：{counts}。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_controls.py" line="212"/>
        <source>Finding duplicates</source>
        <translation>正在查找重复的记忆</translation>
    </message>
</context>
<context>
    <name>MemoryDetailPane</name>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_detail_pane.py" line="71"/>
        <source>Select a memory to see its story: every field, its versions, where it came from and where it was used.</source>
        <translation>选择一条记忆，查看它的完整经历：每个字段、各个版本、来源以及被使用的地方。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_detail_pane.py" line="96"/>
        <source>Edit</source>
        <translation>编辑</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_detail_pane.py" line="98"/>
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_detail_pane.py" line="100"/>
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_detail_pane.py" line="102"/>
        <source>Delete permanently…</source>
        <translation>永久删除…</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_detail_pane.py" line="150"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_detail_pane.py" line="151"/>
        <source>Category</source>
        <translation>分类</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_detail_pane.py" line="152"/>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_detail_pane.py" line="153"/>
        <location filename="../../ekko_memory_gui/views/memory_detail_pane.py" line="200"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_detail_pane.py" line="155"/>
        <source>Confidence</source>
        <translation>置信度</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_detail_pane.py" line="156"/>
        <source>Importance</source>
        <translation>重要性</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_detail_pane.py" line="157"/>
        <source>Origin</source>
        <translation>来源方式</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_detail_pane.py" line="158"/>
        <source>Dates</source>
        <translation>日期</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_detail_pane.py" line="159"/>
        <location filename="../../ekko_memory_gui/views/memory_detail_pane.py" line="201"/>
        <source>Ids</source>
        <translation>标识</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_detail_pane.py" line="164"/>
        <source>Tags and entities</source>
        <translation>标签与实体</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_detail_pane.py" line="225"/>
        <source>Details</source>
        <translation>详细信息</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_detail_pane.py" line="228"/>
        <source>Key, value, confidence, importance, scope, tags and ids of this memory</source>
        <translation>这条记忆的键、值、置信度、重要度、范围、标签和 ID</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_detail_pane.py" line="231"/>
        <source>Versions</source>
        <translation>版本</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_detail_pane.py" line="233"/>
        <source>Sources</source>
        <translation>来源</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_detail_pane.py" line="237"/>
        <source>Used in</source>
        <translation>使用情况</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_detail_pane.py" line="202"/>
        <location filename="../../ekko_memory_gui/views/memory_detail_pane.py" line="235"/>
        <source>Audit</source>
        <translation>审计</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_detail_pane.py" line="154"/>
        <source>Scope</source>
        <translation>范围</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_detail_pane.py" line="246"/>
        <source>Memory details</source>
        <translation>记忆详情</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_detail_pane.py" line="280"/>
        <source>Loading a memory</source>
        <translation>正在加载记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_detail_pane.py" line="344"/>
        <source>Expiry set: {when} ({at})</source>
        <translation>设定的过期时间：{when}（{at}）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_detail_pane.py" line="350"/>
        <source>Expires {when} ({at})</source>
        <translation>{when}过期（{at}）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_detail_pane.py" line="356"/>
        <source>Expired {when} ({at})</source>
        <translation>已于{when}过期（{at}）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_detail_pane.py" line="376"/>
        <source>{scope} · store: {store}</source>
        <translation>{scope} · 存储：{store}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_detail_pane.py" line="391"/>
        <source>created {created} · updated {updated}</source>
        <translation>创建于 {created} · 更新于 {updated}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_detail_pane.py" line="424"/>
        <source>No source message (written by hand or imported).</source>
        <translation>没有来源消息（手动写入或导入）。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_detail_pane.py" line="490"/>
        <source>Open in the session</source>
        <translation>在会话中打开</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_detail_pane.py" line="432"/>
        <source>Not used in a reply yet.</source>
        <translation>还没有在回复中使用过。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_detail_pane.py" line="435"/>
        <source>Used in {n} replies, last on {when}.</source>
        <translation>在 {n} 次回复中使用过，最近一次是 {when}。</translation>
    </message>
</context>
<context>
    <name>MemoryEditDialog</name>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="98"/>
        <source>New memory</source>
        <translation>新建记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="99"/>
        <source>Edit memory</source>
        <translation>编辑记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="100"/>
        <source>Edit and approve</source>
        <translation>编辑后批准</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="107"/>
        <source>Written by you (actor: user). The agent sees it from its next turn.</source>
        <translation>由你写入（执行者：用户）。智能体从下一轮对话开始就能看到。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="110"/>
        <source>Saving creates a new version that supersedes this one; the current version stays in the history and you can revert to it.</source>
        <translation>保存会创建一个取代当前版本的新版本；当前版本保留在历史中，可以随时回退。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="113"/>
        <source>Your changes are applied to the proposal, which is then approved (and recorded as approved by you).</source>
        <translation>你的修改会应用到这条提议上，然后批准（并记录为由你批准）。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="164"/>
        <source>Expires at</source>
        <translation>过期时间点</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="175"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="176"/>
        <source>Content</source>
        <translation>内容</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="177"/>
        <source>Domain</source>
        <translation>领域</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="178"/>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="179"/>
        <source>Category</source>
        <translation>分类</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="180"/>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="181"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="182"/>
        <source>Scope</source>
        <translation>范围</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="183"/>
        <source>Confidence</source>
        <translation>置信度</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="184"/>
        <source>Importance</source>
        <translation>重要性</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="185"/>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="186"/>
        <source>Entities</source>
        <translation>实体</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="187"/>
        <source>Expires</source>
        <translation>过期时间</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="199"/>
        <source>Approve with changes</source>
        <translation>修改后批准</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="201"/>
        <source>Save as new version</source>
        <translation>保存为新版本</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="299"/>
        <source>(no key)</source>
        <translation>（无键）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="299"/>
        <source>(choose a key)</source>
        <translation>（请选择键）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="335"/>
        <source>Never</source>
        <translation>永不</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="336"/>
        <source>End of today</source>
        <translation>今天结束时</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="337"/>
        <source>End of this week</source>
        <translation>本周结束时</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="338"/>
        <source>At…</source>
        <translation>指定时间…</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="460"/>
        <source>A memory needs a title.</source>
        <translation>记忆需要一个标题。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="462"/>
        <source>Choose a domain (for example 生活技能 or 项目).</source>
        <translation>请选择领域（例如 生活技能 或 项目）。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="471"/>
        <source>Choose a key: the schema for this domain and type asks for one.</source>
        <translation>请选择一个键：这个领域和类型的受控 Schema 要求有键。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="474"/>
        <source>Enter a value: the key {key} needs one.</source>
        <translation>请填写值：键 {key} 需要一个值。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="477"/>
        <source>The expiry is later than the year 9998: choose an earlier time.</source>
        <translation>到期时间晚于 9998 年：请选择更早的时间。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="484"/>
        <source>The expiry is in the past: choose a later time, or Never.</source>
        <translation>过期时间已经过去：请选择一个更晚的时间，或选“永不”。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="486"/>
        <source>Nothing changed.</source>
        <translation>没有任何改动。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="493"/>
        <source>The title is longer than {n} characters.</source>
        <translation>标题超过 {n} 个字符。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="495"/>
        <source>The content is longer than {n} characters.</source>
        <translation>内容超过 {n} 个字符。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="498"/>
        <source>The category is deeper than {n} levels.</source>
        <translation>分类超过 {n} 层。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="500"/>
        <source>A category level is longer than {n} characters.</source>
        <translation>有一层分类超过 {n} 个字符。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="504"/>
        <source>tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="505"/>
        <source>entities</source>
        <translation>实体</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="509"/>
        <source>There are {count} {name}; a memory takes at most {n}.</source>
        <translation>共有 {count} 个{name}；一条记忆最多 {n} 个。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/memory_edit_dialog.py" line="513"/>
        <source>One of the {name} is longer than {n} characters.</source>
        <translation>有一个{name}超过 {n} 个字符。</translation>
    </message>
</context>
<context>
    <name>MemoryLabels</name>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="38"/>
        <source>preference</source>
        <translation>偏好</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="39"/>
        <source>fact</source>
        <translation>事实</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="40"/>
        <source>decision</source>
        <translation>决策</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="41"/>
        <source>task</source>
        <translation>任务</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="42"/>
        <source>recipe</source>
        <translation>菜谱</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="43"/>
        <source>skill</source>
        <translation>技能</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="44"/>
        <source>constraint</source>
        <translation>约束</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="45"/>
        <source>correction</source>
        <translation>更正</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="49"/>
        <source>session</source>
        <translation>会话</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="50"/>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="217"/>
        <source>workspace</source>
        <translation>工作区</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="51"/>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="218"/>
        <source>user</source>
        <translation>用户</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="52"/>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="219"/>
        <source>global</source>
        <translation>全局</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="56"/>
        <source>active</source>
        <translation>有效</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="57"/>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="139"/>
        <source>superseded</source>
        <translation>已被取代</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="58"/>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="140"/>
        <source>expired</source>
        <translation>已过期</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="59"/>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="141"/>
        <source>deleted</source>
        <translation>已删除</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="60"/>
        <source>pending</source>
        <translation>待确认</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="61"/>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="145"/>
        <source>approved</source>
        <translation>已批准</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="62"/>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="146"/>
        <source>rejected</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="66"/>
        <source>long-term (user scope) without “remember”</source>
        <translation>长期记忆（用户范围），但用户没说“记住”</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="69"/>
        <source>sensitive personal data</source>
        <translation>敏感个人信息</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="70"/>
        <source>would overwrite a high-confidence memory</source>
        <translation>会覆盖一条高置信度的记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="73"/>
        <source>hard delete</source>
        <translation>永久删除</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="74"/>
        <source>forget request matched several memories</source>
        <translation>遗忘请求匹配到多条记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="75"/>
        <source>moves a memory into your long-term scope</source>
        <translation>会把记忆移入你的长期范围</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="78"/>
        <source>deletes sensitive personal data</source>
        <translation>会删除敏感个人信息</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="79"/>
        <source>not in your own words</source>
        <translation>不是你的原话</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="84"/>
        <source>a long-term (user scope) memory you did not ask to remember</source>
        <translation>这是一条长期（用户范围）记忆，而你没有要求记住它</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="87"/>
        <source>it holds sensitive personal data</source>
        <translation>其中含有敏感个人信息</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="88"/>
        <source>it would overwrite a high-confidence memory without a clear request</source>
        <translation>它会在没有明确要求的情况下覆盖一条高置信度的记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="92"/>
        <source>a hard delete removes the memory for good</source>
        <translation>永久删除会彻底移除这条记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="95"/>
        <source>the forget request matched several memories</source>
        <translation>这个遗忘请求匹配到了多条记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="98"/>
        <source>it would move a memory into your long-term (user) scope</source>
        <translation>它会把一条记忆移入你的长期（用户）范围</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="101"/>
        <source>it deletes sensitive personal data</source>
        <translation>它会删除敏感个人信息</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="102"/>
        <source>the value is not in your own words; the model may have guessed it</source>
        <translation>这个值不是你的原话，可能是模型猜的</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="170"/>
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="171"/>
        <source>Agent</source>
        <translation>助手</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="172"/>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="173"/>
        <source>Tool</source>
        <translation>工具</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="40"/>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="105"/>
        <source>global memories ship with the app and are read-only</source>
        <translation>全局记忆随应用提供，只读</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="113"/>
        <source>phone number</source>
        <translation>手机号</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="114"/>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="121"/>
        <source>ID number</source>
        <translation>身份证号</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="115"/>
        <source>bank card number</source>
        <translation>银行卡号</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="116"/>
        <source>email address</source>
        <translation>电子邮箱</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="117"/>
        <source>street address</source>
        <translation>住址</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="118"/>
        <source>health</source>
        <translation>健康</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="119"/>
        <source>phone</source>
        <translation>电话</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="120"/>
        <source>address</source>
        <translation>地址</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="122"/>
        <source>email</source>
        <translation>邮箱</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="123"/>
        <source>birthday</source>
        <translation>生日</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="124"/>
        <source>health condition</source>
        <translation>健康状况</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="129"/>
        <source>Not valid</source>
        <translation>无效</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="130"/>
        <source>Not found</source>
        <translation>未找到</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="131"/>
        <source>Not allowed</source>
        <translation>不允许</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="132"/>
        <source>The store is unavailable</source>
        <translation>存储不可用</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="133"/>
        <source>Changed meanwhile</source>
        <translation>已被更改</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="33"/>
        <source>this is already the current version</source>
        <translation>这已经是当前版本</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="34"/>
        <source>the memory is deleted; restore it first</source>
        <translation>这条记忆已删除，请先恢复它</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="37"/>
        <source>a newer version exists; restore that one instead</source>
        <translation>已有更新的版本，请恢复那个版本</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="64"/>
        <source>the store {path} cannot be reached ({detail})</source>
        <translation>无法访问存储 {path}（{detail}）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="67"/>
        <source>the store {path} could not read or write its file ({detail})</source>
        <translation>存储 {path} 无法读写它的文件（{detail}）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="71"/>
        <source>already remembered; nothing new was written</source>
        <translation>已经记住了，没有写入新内容</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="74"/>
        <source>already expired</source>
        <translation>已经过期</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="76"/>
        <source>written by you</source>
        <translation>由你写入</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="77"/>
        <source>edited by you</source>
        <translation>由你编辑</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="78"/>
        <source>expired by you</source>
        <translation>由你设为过期</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="79"/>
        <source>deleted by you</source>
        <translation>由你删除</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="80"/>
        <source>restored by you</source>
        <translation>由你恢复</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="81"/>
        <source>approved by you</source>
        <translation>由你批准</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="82"/>
        <source>rejected by you</source>
        <translation>由你拒绝</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="83"/>
        <source>decided by you in a batch</source>
        <translation>由你批量处理</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="84"/>
        <source>deleted permanently by you</source>
        <translation>由你永久删除</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="85"/>
        <source>purged by you</source>
        <translation>由你清除</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="86"/>
        <source>forgotten by you from the command line</source>
        <translation>由你在命令行中遗忘</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="90"/>
        <source>reverted to the version of {when}</source>
        <translation>回退到 {when} 的版本</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="114"/>
        <source>you said it anew in the conversation (you said: “{said}”)</source>
        <translation>你在对话中重新说了一遍（你说：“{said}”）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="162"/>
        <source>{text} (reason {code})</source>
        <translation>{text}（原因代码 {code}）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="137"/>
        <source>created</source>
        <translation>创建</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="138"/>
        <source>updated</source>
        <translation>更新</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="142"/>
        <source>deleted permanently</source>
        <translation>已永久删除</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="143"/>
        <source>restored</source>
        <translation>已恢复</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="144"/>
        <source>sent to the inbox</source>
        <translation>送入收件箱</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="147"/>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="190"/>
        <source>imported</source>
        <translation>已导入</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="148"/>
        <source>purged</source>
        <translation>已清除</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="149"/>
        <source>reverted</source>
        <translation>已回退</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="158"/>
        <source>withdrawn</source>
        <translation>已撤回</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="162"/>
        <source>Write waiting</source>
        <translation>写入待确认</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="163"/>
        <source>Hard delete waiting</source>
        <translation>永久删除待确认</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="164"/>
        <source>Forget waiting</source>
        <translation>遗忘待确认</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="165"/>
        <source>Scope change waiting</source>
        <translation>范围变更待确认</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="182"/>
        <source>system</source>
        <translation>系统</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="175"/>
        <source>the agent, reporting the user&apos;s words</source>
        <translation>助手转述的用户原话</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="179"/>
        <source>you</source>
        <translation>你</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="180"/>
        <source>agent</source>
        <translation>助手</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="181"/>
        <source>extractor</source>
        <translation>提取器</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="183"/>
        <source>import</source>
        <translation>导入</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="187"/>
        <source>the user asked to remember</source>
        <translation>用户明确要求记住</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="188"/>
        <source>written or edited by you</source>
        <translation>由你写入或编辑</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="189"/>
        <source>inferred by the agent</source>
        <translation>助手推断</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="191"/>
        <source>shipped with the app</source>
        <translation>随应用提供</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="195"/>
        <source>memory version</source>
        <translation>记忆版本</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="196"/>
        <source>audit entry</source>
        <translation>审计记录</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="197"/>
        <source>inbox item</source>
        <translation>待确认事项</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="198"/>
        <source>usage record</source>
        <translation>使用记录</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="199"/>
        <source>message</source>
        <translation>消息</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="200"/>
        <source>summary</source>
        <translation>摘要</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="201"/>
        <source>background job</source>
        <translation>后台任务</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="202"/>
        <source>session cursor</source>
        <translation>会话游标</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="206"/>
        <source>{n} memory versions</source>
        <translation>{n} 个记忆版本</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="207"/>
        <source>{n} audit entries</source>
        <translation>{n} 条审计记录</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="208"/>
        <source>{n} inbox items</source>
        <translation>{n} 个待确认事项</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="209"/>
        <source>{n} usage records</source>
        <translation>{n} 条使用记录</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="210"/>
        <source>{n} messages</source>
        <translation>{n} 条消息</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="211"/>
        <source>{n} summaries</source>
        <translation>{n} 份摘要</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="212"/>
        <source>{n} background jobs</source>
        <translation>{n} 个后台任务</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="213"/>
        <source>{n} session cursors</source>
        <translation>{n} 个会话游标</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/core_text.py" line="75"/>
        <source>the {store} store cannot be written ({reason})</source>
        <translation>{store}存储无法写入（{reason}）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/core_text.py" line="82"/>
        <source>memory store disabled: {reason}</source>
        <translation>存储已停用：{reason}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/core_text.py" line="86"/>
        <source>memory store at {location} is readonly: {reason}</source>
        <translation>存储 {location} 是只读的：{reason}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/core_text.py" line="89"/>
        <source>memory store at {location} is degraded: {reason}</source>
        <translation>存储 {location} 已降级：{reason}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/core_text.py" line="38"/>
        <location filename="../../ekko_memory_gui/models/match_reason.py" line="43"/>
        <location filename="../../ekko_memory_gui/views/inbox_batch_text.py" line="39"/>
        <location filename="../../ekko_memory_gui/views/markdown_words.py" line="33"/>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/core_text.py" line="43"/>
        <source>{sentence} ({kinds})</source>
        <translation>{sentence}（{kinds}）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/core_text.py" line="106"/>
        <source>{reason}; nothing was written, try again</source>
        <translation>{reason}；没有写入任何内容，请重试</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="23"/>
        <source>pending item {id} is already {status}</source>
        <translation>待确认项 {id} 已是“{status}”状态</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="26"/>
        <source>pending item {id} was decided meanwhile (by someone else)</source>
        <translation>待确认项 {id} 已被（其他人）处理</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="29"/>
        <source>memory {id} is an old version; change its current version {head}</source>
        <translation>记忆 {id} 是旧版本，请修改它的当前版本 {head}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="54"/>
        <source>the folder {path} does not exist</source>
        <translation>文件夹 {path} 不存在</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="55"/>
        <source>{path} is not valid JSON ({detail})</source>
        <translation>{path} 不是有效的 JSON（{detail}）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="56"/>
        <source>{path} is not an Ekko Memory bundle; only the JSON bundles Export writes can be imported</source>
        <translation>{path} 不是 Ekko Memory 数据包；只能导入“导出”写出的 JSON 数据包</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="61"/>
        <source>another program kept the store {path} locked</source>
        <translation>另一个程序一直锁着存储 {path}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="32"/>
        <source>memory {id} is deleted</source>
        <translation>记忆 {id} 已删除</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/core_text.py" line="132"/>
        <location filename="../../ekko_memory_gui/models/labels/core_text.py" line="179"/>
        <source>{kind}: {message}</source>
        <translation>{kind}：{message}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/core_text.py" line="110"/>
        <source>{reason}; nothing was written</source>
        <translation>{reason}；没有写入任何内容</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="108"/>
        <source>you asked to forget it in the conversation (you said: “{said}”)</source>
        <translation>你在对话中要求忘掉它（你说：“{said}”）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="111"/>
        <source>you took back what you had just said (you said: “{said}”)</source>
        <translation>你收回了刚才说的话（你说：“{said}”）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="105"/>
        <source>you took it back in the conversation: {detail} (you said: “{said}”)</source>
        <translation>你在对话中收回了它（你说：“{said}”）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/values.py" line="72"/>
        <source>{n} s</source>
        <translation>{n} 秒</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/values.py" line="74"/>
        <source>{n} min</source>
        <translation>{n} 分钟</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/values.py" line="76"/>
        <source>{n} h</source>
        <translation>{n} 小时</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/values.py" line="78"/>
        <source>{n} d</source>
        <translation>{n} 天</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/values.py" line="80"/>
        <source>in {amount}</source>
        <translation>{amount}后</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/values.py" line="82"/>
        <source>{amount} ago</source>
        <translation>{amount}前</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="43"/>
        <source>you pinned memory {id}: the agent may read it but not change or delete it</source>
        <translation>你已固定记忆 {id}：助手可以读取，但不能修改或删除</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="47"/>
        <source>memory is paused: the agent neither reads nor writes it until you resume it</source>
        <translation>记忆已暂停：恢复之前，助手既不读取也不写入记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="51"/>
        <source>what would be forgotten changed since the preview; preview again</source>
        <translation>预览之后要遗忘的内容有了变化，请重新预览</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="91"/>
        <source>pinned by you</source>
        <translation>你已固定</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="92"/>
        <source>unpinned by you</source>
        <translation>你已取消固定</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="93"/>
        <source>memory paused by you</source>
        <translation>你暂停了记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="94"/>
        <source>memory resumed by you</source>
        <translation>你恢复了记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="95"/>
        <source>merged by you into {id}</source>
        <translation>你将其合并到 {id}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="96"/>
        <source>you undid the merge into {id}</source>
        <translation>你撤销了合并到 {id}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="97"/>
        <source>you marked it as no duplicate of {id}</source>
        <translation>你标记它与 {id} 不重复</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/reasons.py" line="100"/>
        <source>you marked it as a possible duplicate of {id} again</source>
        <translation>你重新标记它可能与 {id} 重复</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="150"/>
        <source>pinned</source>
        <translation>已固定</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="151"/>
        <source>unpinned</source>
        <translation>已取消固定</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="152"/>
        <source>memory paused</source>
        <translation>记忆已暂停</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="153"/>
        <source>memory resumed</source>
        <translation>记忆已恢复</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="154"/>
        <source>merged</source>
        <translation>已合并</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="155"/>
        <source>merge undone</source>
        <translation>已撤销合并</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/vocabulary.py" line="156"/>
        <source>marked as no duplicate</source>
        <translation>已标记为不重复</translation>
    </message>
</context>
<context>
    <name>MemoryListPane</name>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_list_pane.py" line="58"/>
        <source>Memories</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_list_pane.py" line="92"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_list_pane.py" line="185"/>
        <source>Counting memories</source>
        <translation>正在统计记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_list_pane.py" line="192"/>
        <source>1 memory</source>
        <translation>1 条记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_list_pane.py" line="194"/>
        <source>{n} memories</source>
        <translation>{n} 条记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_list_pane.py" line="201"/>
        <source>{n}+ matches, best first</source>
        <translation>{n}+ 条匹配，最相关的在前</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_list_pane.py" line="203"/>
        <source>The {n} best matches, sorted</source>
        <translation>最相关的 {n} 条匹配，已排序</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_list_pane.py" line="206"/>
        <source>No matches</source>
        <translation>没有匹配</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_list_pane.py" line="208"/>
        <source>1 match</source>
        <translation>1 条匹配</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_list_pane.py" line="210"/>
        <source>{n} matches, best first</source>
        <translation>{n} 条匹配，最相关的在前</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_list_pane.py" line="210"/>
        <source>{n} matches</source>
        <translation>{n} 条匹配</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_list_pane.py" line="308"/>
        <source>Loading…</source>
        <translation>加载中…</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_list_pane.py" line="325"/>
        <source>Could not load the memories: {reason}

Press F5 to try again.</source>
        <translation>无法加载记忆：{reason}

按 F5 重试。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_list_pane.py" line="330"/>
        <source>Nothing matches “{text}”.

Search looks in titles, content, values, tags and entities; Chinese words of two characters work too.</source>
        <translation>没有与“{text}”匹配的记忆。

搜索范围包括标题、内容、值、标签和实体；两个字的中文词也能搜到。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_list_pane.py" line="336"/>
        <source>The trash is empty.

Deleted memories wait here until you restore them or delete them permanently.</source>
        <translation>回收站是空的。

删除的记忆会留在这里，直到你恢复或永久删除它们。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_list_pane.py" line="339"/>
        <source>No memories in this branch.</source>
        <translation>这个分类下没有记忆。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_list_pane.py" line="345"/>
        <source>No memories yet.

Memories are what your agent keeps between conversations: your preferences (不要香菜), project decisions, tasks and facts. The agent adds them when you ask it to remember something; some wait in the inbox for your approval. You can also add one yourself with New memory (Ctrl+N).</source>
        <translation>还没有记忆。

记忆是智能体在多次对话之间保留的内容：你的偏好（不要香菜）、项目决策、任务和事实。当你让它记住某件事时，它就会添加记忆；有些会在收件箱里等你批准。你也可以通过“新建记忆”（Ctrl+N）自己添加。</translation>
    </message>
</context>
<context>
    <name>MemorySelection</name>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_selection.py" line="52"/>
        <source>Ctrl+click or Shift+click selects several memories; the Menu key or Shift+F10 opens what can be done with them.</source>
        <translation>按住 Ctrl 或 Shift 单击可选择多条记忆；按菜单键或 Shift+F10 打开可对它们执行的操作。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_selection.py" line="57"/>
        <source>Actions on the selection</source>
        <translation>对所选内容的操作</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_selection.py" line="93"/>
        <source>Actions on the selected memories</source>
        <translation>对所选记忆的操作</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_selection.py" line="103"/>
        <source>Edit…</source>
        <translation>编辑…</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_selection.py" line="106"/>
        <source>Move to trash</source>
        <translation>移到回收站</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_selection.py" line="106"/>
        <source>Move {n} to trash</source>
        <translation>将 {n} 条移到回收站</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_selection.py" line="111"/>
        <source>Move to category…</source>
        <translation>移动到分类…</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_selection.py" line="113"/>
        <source>Export selection…</source>
        <translation>导出所选…</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_selection.py" line="113"/>
        <source>Export…</source>
        <translation>导出…</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_selection.py" line="120"/>
        <source>Pin</source>
        <translation>固定</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_selection.py" line="121"/>
        <source>The agent may read it but never change or delete it</source>
        <translation>智能体可以读取，但不能修改或删除</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_selection.py" line="122"/>
        <source>Unpin</source>
        <translation>取消固定</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_selection.py" line="125"/>
        <source>Forget everything about these…</source>
        <translation>忘掉关于这些的一切……</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_selection.py" line="127"/>
        <source>Forget everything about this…</source>
        <translation>忘掉关于这条的一切……</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_selection.py" line="133"/>
        <source>Delete permanently…</source>
        <translation>永久删除…</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_selection.py" line="171"/>
        <source>built in, read-only</source>
        <translation>内置，只读</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_selection.py" line="172"/>
        <source>an earlier version</source>
        <translation>较早的版本</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_selection.py" line="173"/>
        <source>in the trash or gone</source>
        <translation>已在回收站或已不存在</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_selection.py" line="174"/>
        <source>refused</source>
        <translation>被拒绝</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_selection.py" line="180"/>
        <source>Left as they were: {list}</source>
        <translation>未作更改：{list}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_selection.py" line="187"/>
        <source>Moving memories to the trash</source>
        <translation>正在将记忆移到回收站</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_selection.py" line="197"/>
        <source>Undo delete of {n} memories</source>
        <translation>撤销删除 {n} 条记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_selection.py" line="199"/>
        <source>Undo delete of “{title}”</source>
        <translation>撤销删除“{title}”</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_selection.py" line="205"/>
        <source>Moved {n} memories to the trash. Ctrl+Z brings them back.</source>
        <translation>已将 {n} 条记忆移到回收站。按 Ctrl+Z 可恢复。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_selection.py" line="213"/>
        <source>Moving memories to a category</source>
        <translation>正在将记忆移动到分类</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_selection.py" line="233"/>
        <source>Undo move of {n} memories</source>
        <translation>撤销移动 {n} 条记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_selection.py" line="238"/>
        <source>Moved {n} memories to {path}.</source>
        <translation>已将 {n} 条记忆移动到 {path}。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_selection.py" line="246"/>
        <source>Exporting the selection</source>
        <translation>正在导出所选内容</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_selection.py" line="254"/>
        <source>Export the selected memories</source>
        <translation>导出所选记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_selection.py" line="256"/>
        <source>Markdown (*.md)</source>
        <translation>Markdown（*.md）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_selection.py" line="267"/>
        <source>Export selection</source>
        <translation>导出所选</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_selection.py" line="271"/>
        <source>Exported {n} memories to {path}.</source>
        <translation>已导出 {n} 条记忆到 {path}。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_selection.py" line="278"/>
        <source>Pinning memories</source>
        <translation>正在固定记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_selection.py" line="284"/>
        <source>Pinned {n} memories: the agent can read them but not change them.</source>
        <translation>已固定 {n} 条记忆：智能体可以读取，但不能修改。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/memory_selection.py" line="286"/>
        <source>Unpinned {n} memories.</source>
        <translation>已取消固定 {n} 条记忆。</translation>
    </message>
</context>
<context>
    <name>MemorySentences</name>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="37"/>
        <source>spice</source>
        <translation>辣</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="38"/>
        <source>oil</source>
        <translation>油</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="39"/>
        <source>salt</source>
        <translation>盐</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="40"/>
        <source>sugar</source>
        <translation>糖</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="41"/>
        <source>vinegar</source>
        <translation>醋</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="42"/>
        <source>less {what}</source>
        <translation>少{what}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="43"/>
        <source>no {what}</source>
        <translation>不放{what}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="44"/>
        <source>more {what}</source>
        <translation>多{what}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="45"/>
        <source>some {what}</source>
        <translation>适量{what}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="46"/>
        <source>Chinese</source>
        <translation>中文</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="47"/>
        <source>English</source>
        <translation>英文</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="48"/>
        <source>Japanese</source>
        <translation>日文</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="49"/>
        <source>{first}, {then}</source>
        <translation>{first}{then}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="94"/>
        <source>、</source>
        <translation>、</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="126"/>
        <source>A little {ingredient} is fine</source>
        <translation>可以接受少量{ingredient}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="130"/>
        <source>Only a little {ingredient}</source>
        <translation>{ingredient}只放一点</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="133"/>
        <source>{amount} {ingredient} is fine</source>
        <translation>可以接受{amount}{ingredient}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="143"/>
        <source>Replies in {language}</source>
        <translation>用{language}回复</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="153"/>
        <source>{person} is called {name}</source>
        <translation>{person}叫{name}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="163"/>
        <source>{task} (done)</source>
        <translation>{task}（已完成）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="168"/>
        <source>Doesn&apos;t eat {v}</source>
        <translation>不吃{v}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="169"/>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="173"/>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="178"/>
        <source>Likes {v}</source>
        <translation>喜欢{v}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="172"/>
        <source>Diet: {v}</source>
        <translation>饮食：{v}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="175"/>
        <source>Replies: {v}</source>
        <translation>回复：{v}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="176"/>
        <source>Call me {v}</source>
        <translation>称呼我{v}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="177"/>
        <source>Time zone: {v}</source>
        <translation>时区：{v}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="179"/>
        <source>Dislikes {v}</source>
        <translation>不喜欢{v}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="180"/>
        <source>Allergic to {v}</source>
        <translation>对{v}过敏</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="213"/>
        <source>Tomato and egg stir-fry</source>
        <translation>番茄炒蛋</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="216"/>
        <source>Blanch meat first to take away the smell</source>
        <translation>焯水去腥</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="228"/>
        <source>A quick home-style dish of tomatoes and eggs. Can be made with less oil and without cilantro, as the user prefers.</source>
        <translation>家常快手菜，主要食材是番茄和鸡蛋。可按用户偏好少油、不放香菜。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="233"/>
        <source>Put the meat in cold water before cooking, add ginger slices and cooking wine, skim off the foam once it boils, then take it out.</source>
        <translation>肉类下锅前冷水下锅焯水，加姜片和料酒，水开后撇去浮沫再捞出。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="274"/>
        <source>Life skills</source>
        <translation>生活技能</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="275"/>
        <source>Cooking</source>
        <translation>做饭</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="276"/>
        <source>Food preferences</source>
        <translation>饮食偏好</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="277"/>
        <source>Recipes</source>
        <translation>菜谱</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="278"/>
        <source>Cooking tips</source>
        <translation>烹饪技巧</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="279"/>
        <source>Personal</source>
        <translation>个人</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="280"/>
        <source>Communication</source>
        <translation>沟通</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="281"/>
        <source>Likes</source>
        <translation>喜好</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="282"/>
        <source>Current state</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="283"/>
        <source>Schedule</source>
        <translation>日程</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="284"/>
        <source>Notes</source>
        <translation>笔记</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="285"/>
        <source>People</source>
        <translation>人物</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="286"/>
        <source>Project</source>
        <translation>项目</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="287"/>
        <source>Tasks</source>
        <translation>任务</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="288"/>
        <source>Architecture</source>
        <translation>架构</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="289"/>
        <source>Deployment</source>
        <translation>部署</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="290"/>
        <source>Collaboration</source>
        <translation>协作</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="291"/>
        <source>Rules</source>
        <translation>约束</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="315"/>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="317"/>
        <source>You</source>
        <translation>你</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="318"/>
        <source>The agent</source>
        <translation>助手</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="319"/>
        <source>Built in</source>
        <translation>内置</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="320"/>
        <source>Imported</source>
        <translation>导入</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="333"/>
        <source>until {time} today</source>
        <translation>今天 {time} 前</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="337"/>
        <source>until {day}</source>
        <translation>到{day}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="338"/>
        <source>until {date}</source>
        <translation>到 {date}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="343"/>
        <source>Mon</source>
        <translation>周一</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="344"/>
        <source>Tue</source>
        <translation>周二</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="345"/>
        <source>Wed</source>
        <translation>周三</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="346"/>
        <source>Thu</source>
        <translation>周四</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="347"/>
        <source>Fri</source>
        <translation>周五</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="348"/>
        <source>Sat</source>
        <translation>周六</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="349"/>
        <source>Sun</source>
        <translation>周日</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="366"/>
        <source>waiting for you</source>
        <translation>等你确认</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="368"/>
        <source>pinned</source>
        <translation>已固定</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/sentences.py" line="372"/>
        <source>used recently</source>
        <translation>最近用过</translation>
    </message>
</context>
<context>
    <name>MemoryTableModel</name>
    <message>
        <location filename="../../ekko_memory_gui/models/memory_table_model.py" line="211"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/memory_table_model.py" line="207"/>
        <source>Memory</source>
        <translation>记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/memory_table_model.py" line="208"/>
        <source>Category</source>
        <translation>分类</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/memory_table_model.py" line="209"/>
        <source>From</source>
        <translation>来自</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/memory_table_model.py" line="210"/>
        <source>Changed</source>
        <translation>更改</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/memory_table_model.py" line="269"/>
        <source>Each memory as a sentence; a click sorts them by title</source>
        <translation>每条记忆写成一句话；点击按标题排序</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/memory_table_model.py" line="403"/>
        <source>Loading memories</source>
        <translation>正在加载记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/memory_table_model.py" line="449"/>
        <source>Refreshing memories</source>
        <translation>正在刷新记忆</translation>
    </message>
</context>
<context>
    <name>MessageListModel</name>
    <message>
        <location filename="../../ekko_memory_gui/models/session_models.py" line="174"/>
        <source>Loading messages</source>
        <translation>正在加载消息</translation>
    </message>
</context>
<context>
    <name>MoveDialog</name>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/move_dialog.py" line="35"/>
        <source>Move to category</source>
        <translation>移动到分类</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/move_dialog.py" line="39"/>
        <source>Move {n} memories to the category below. Each gets a new version there; the earlier one stays in its history, and Ctrl+Z moves them back.</source>
        <translation>将 {n} 条记忆移动到下面的分类。每条都会在那里生成新版本；较早的版本保留在历史中，按 Ctrl+Z 可移回。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/move_dialog.py" line="44"/>
        <source>Move this memory to the category below. It gets a new version there; the earlier one stays in its history, and Ctrl+Z moves it back.</source>
        <translation>将这条记忆移动到下面的分类。它会在那里生成新版本；较早的版本保留在历史中，按 Ctrl+Z 可移回。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/move_dialog.py" line="48"/>
        <source>&amp;Category (domain / category / …):</source>
        <translation>分类（领域 / 分类 / …）(&amp;C)：</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/move_dialog.py" line="57"/>
        <location filename="../../ekko_memory_gui/views/dialogs/move_dialog.py" line="64"/>
        <source>Category</source>
        <translation>分类</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/move_dialog.py" line="59"/>
        <source>A category in use, or a new path such as 项目 / 架构</source>
        <translation>已有的分类，或新的路径，例如 项目 / 架构</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/move_dialog.py" line="63"/>
        <source>for example 项目 / 架构</source>
        <translation>例如 项目 / 架构</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/move_dialog.py" line="72"/>
        <source>Move</source>
        <translation>移动</translation>
    </message>
</context>
<context>
    <name>PendingCard</name>
    <message>
        <location filename="../../ekko_memory_gui/views/pending_card.py" line="106"/>
        <source>Select “{title}”</source>
        <translation>选择“{title}”</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/pending_card.py" line="141"/>
        <source>Would delete permanently:</source>
        <translation>将永久删除：</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/pending_card.py" line="144"/>
        <source>Would expire:</source>
        <translation>将设为过期：</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/pending_card.py" line="146"/>
        <source>Would delete:</source>
        <translation>将删除：</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/pending_card.py" line="157"/>
        <source>  (the memories are already gone)</source>
        <translation>  （这些记忆已经不存在）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/pending_card.py" line="160"/>
        <source>Why it waits: {reason}. Requested by {who}.</source>
        <translation>等待原因：{reason}。请求者：{who}。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/pending_card.py" line="174"/>
        <source>The agent reports the user said: “{text}”</source>
        <translation>智能体转述用户的话：“{text}”</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/pending_card.py" line="176"/>
        <source>Source: “{text}”</source>
        <translation>来源：“{text}”</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/pending_card.py" line="185"/>
        <source>Reject</source>
        <translation>拒绝</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/pending_card.py" line="187"/>
        <source>Edit and approve</source>
        <translation>编辑后批准</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/pending_card.py" line="189"/>
        <source>Approve</source>
        <translation>批准</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/pending_card.py" line="215"/>
        <source>proposed (a new memory; nothing is replaced)</source>
        <translation>提议（新记忆，不替换任何内容）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/pending_card.py" line="223"/>
        <source>current</source>
        <translation>当前</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/pending_card.py" line="224"/>
        <source>proposed</source>
        <translation>提议</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/pending_card.py" line="227"/>
        <source>title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/pending_card.py" line="228"/>
        <source>key</source>
        <translation>键</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/pending_card.py" line="229"/>
        <source>value</source>
        <translation>值</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/pending_card.py" line="230"/>
        <source>scope</source>
        <translation>范围</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/pending_card.py" line="231"/>
        <source>status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/pending_card.py" line="232"/>
        <source>confidence</source>
        <translation>置信度</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/pending_card.py" line="233"/>
        <source>origin</source>
        <translation>来源方式</translation>
    </message>
</context>
<context>
    <name>PendingListModel</name>
    <message>
        <location filename="../../ekko_memory_gui/models/pending_model.py" line="39"/>
        <source>Kind</source>
        <translation>种类</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/pending_model.py" line="40"/>
        <source>Why it waits</source>
        <translation>等待原因</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/pending_model.py" line="41"/>
        <source>Proposal</source>
        <translation>提议</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/pending_model.py" line="42"/>
        <source>Category</source>
        <translation>分类</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/pending_model.py" line="44"/>
        <source>Since</source>
        <translation>提出时间</translation>
    </message>
</context>
<context>
    <name>PurgeDialog</name>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="65"/>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="330"/>
        <source>Purge for good</source>
        <translation>彻底清除</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="87"/>
        <source>(any)</source>
        <translation>（任意）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="88"/>
        <source>from</source>
        <translation>从</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="90"/>
        <source>until</source>
        <translation>到</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="109"/>
        <source>words anywhere in a memory, e.g. 手机号</source>
        <translation>记忆中任意位置的文字，例如 手机号</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="115"/>
        <source>Also the messages (sources, and those matching session, dates or words) and the summaries built on them</source>
        <translation>同时清除消息（来源消息，以及符合会话、日期或文字条件的消息）和基于它们的摘要</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="121"/>
        <source>Delete migration backups that still hold purged text</source>
        <translation>删除仍包含被清除文字的迁移备份</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="133"/>
        <source>Scopes</source>
        <translation>范围</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="134"/>
        <source>Workspace id</source>
        <translation>工作区标识</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="135"/>
        <source>User id</source>
        <translation>用户标识</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="136"/>
        <source>Category</source>
        <translation>分类</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="137"/>
        <source>Session</source>
        <translation>会话</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="138"/>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="139"/>
        <source>Words</source>
        <translation>文字</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="142"/>
        <source>What to purge</source>
        <translation>清除什么</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="146"/>
        <source>Every condition you fill must hold. Every version of a matching memory goes, with its audit text, usage and pending items.</source>
        <translation>你填写的每个条件都必须满足。匹配记忆的每个版本都会被清除，包括它的审计文字、使用记录和待确认事项。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="159"/>
        <source>Run a dry run to see everything that would go.</source>
        <translation>先试运行，查看将被清除的全部内容。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="167"/>
        <source>Kind</source>
        <translation>种类</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="167"/>
        <source>Store</source>
        <translation>存储</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="167"/>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="167"/>
        <source>Id</source>
        <translation>标识</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="167"/>
        <source>What</source>
        <translation>内容</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="164"/>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="186"/>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="200"/>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="269"/>
        <source>Dry run</source>
        <translation>试运行</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="93"/>
        <source>Created from</source>
        <translation>创建时间起</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="94"/>
        <source>Created until</source>
        <translation>创建时间止</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="203"/>
        <source>Purge…</source>
        <translation>彻底清除…</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="227"/>
        <source>Loading sessions</source>
        <translation>正在加载会话</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="264"/>
        <source>The filter changed: run the dry run again.</source>
        <translation>条件已更改：请重新试运行。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="277"/>
        <source>Name what to purge.</source>
        <translation>请指定要清除的内容。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="292"/>
        <source>Nothing matches: nothing would be purged.</source>
        <translation>没有匹配项：不会清除任何内容。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="295"/>
        <source>1 memory</source>
        <translation>1 条记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="297"/>
        <source>{n} memories</source>
        <translation>{n} 条记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="306"/>
        <source>delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="306"/>
        <source>remove its text</source>
        <translation>抹去文字</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="321"/>
        <source>Purging</source>
        <translation>正在清除</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="331"/>
        <source>{summary}

This deletes them for good and cannot be undone.</source>
        <translation>{summary}

这会永久删除它们，无法撤销。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="334"/>
        <source>Purge</source>
        <translation>彻底清除</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="341"/>
        <source>Purging…</source>
        <translation>正在清除…</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="365"/>
        <source>Purged: 1 memory</source>
        <translation>已清除：1 条记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="367"/>
        <source>Purged: {n} memories</source>
        <translation>已清除：{n} 条记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="374"/>
        <source>Cancelled: what was purged is gone for good; run the purge again to finish.</source>
        <translation>已取消：已清除的部分无法恢复；再次运行清除即可完成。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="383"/>
        <source>Searched the tables and the search index on the PostgreSQL server for {texts} purged texts (the server&apos;s data files are not read from here; the tables were rewritten with VACUUM FULL).</source>
        <translation>已在 PostgreSQL 服务器的数据表和搜索索引中查找 {texts} 段已清除的文字（服务器的数据文件无法从这里读取；数据表已用 VACUUM FULL 重写）。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="389"/>
        <source>Searched the tables, the search index and the bytes of {files} files for {texts} purged texts.</source>
        <translation>已在数据表、搜索索引和 {files} 个文件的字节中查找 {texts} 段被清除的文字。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="394"/>
        <source>A search for “{query}” in your stores now finds {n} memories.</source>
        <translation>现在在你的存储中搜索“{query}”，找到 {n} 条记忆。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="399"/>
        <source>✓ Nothing left: not in the tables, not in the search index.</source>
        <translation>✓ 没有残留：数据表和搜索索引中都没有。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="403"/>
        <source>✓ Nothing left: not in the tables, not in the search index, not in the files&apos; bytes.</source>
        <translation>✓ 没有任何残留：数据表、搜索索引和文件字节中都没有。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="407"/>
        <source>✗ Purged text is still somewhere:</source>
        <translation>✗ 被清除的文字仍存在于：</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="413"/>
        <source>Still held by records the purge did not cover (widen the filter to remove them):</source>
        <translation>仍被未包含在本次清除中的记录保留（放宽条件即可一并清除）：</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="421"/>
        <source>Backups removed: {n}</source>
        <translation>已删除备份：{n}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/purge_dialog.py" line="110"/>
        <source>Also the messages and their summaries</source>
        <translation>同时清除消息及其摘要</translation>
    </message>
</context>
<context>
    <name>RecordKinds</name>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/record_kinds.py" line="12"/>
        <source>Memories (every version)</source>
        <translation>记忆（含所有版本）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/record_kinds.py" line="13"/>
        <source>History entries</source>
        <translation>历史记录条目</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/record_kinds.py" line="14"/>
        <source>Conversation messages</source>
        <translation>对话消息</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/record_kinds.py" line="15"/>
        <source>Conversation summaries</source>
        <translation>对话摘要</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/record_kinds.py" line="16"/>
        <source>Inbox items</source>
        <translation>收件箱条目</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/record_kinds.py" line="17"/>
        <source>Uses in replies</source>
        <translation>在回复中的使用</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/record_kinds.py" line="18"/>
        <source>Reading positions</source>
        <translation>读取位置</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/record_kinds.py" line="24"/>
        <source>What</source>
        <translation>内容</translation>
    </message>
</context>
<context>
    <name>ReindexDialog</name>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/reindex_dialog.py" line="25"/>
        <source>Semantic index</source>
        <translation>语义索引</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/reindex_dialog.py" line="30"/>
        <source>Semantic recall finds memories by what they mean, in Chinese and English, even when a question shares no word with them. Each memory needs a vector from the embedding model first: new memories get one in the background; after a change of model every memory is embedded again. Until then a memory is found by its words.</source>
        <translation>语义召回按意思查找记忆，中英文皆可，即使问题与记忆没有一个相同的词。每条记忆需要先由嵌入模型生成向量：新记忆会在后台生成；更换模型后，所有记忆都会重新生成。在此之前，记忆仍可按关键词找到。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/reindex_dialog.py" line="43"/>
        <source>Embed now</source>
        <translation>立即生成向量</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/reindex_dialog.py" line="60"/>
        <source>Semantic recall is off (EKKO_EMBEDDER=none, the configuration, or the &apos;semantic&apos; extra is not installed): memories are found by their words.</source>
        <translation>语义召回已关闭（EKKO_EMBEDDER=none、配置文件，或未安装 &apos;semantic&apos; 扩展）：记忆按关键词查找。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/reindex_dialog.py" line="66"/>
        <source>Model: {model}</source>
        <translation>模型：{model}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/reindex_dialog.py" line="69"/>
        <source>{store} store: {have} embedded, {missing} waiting</source>
        <translation>{store}存储：已生成 {have} 条，待生成 {missing} 条</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/reindex_dialog.py" line="79"/>
        <location filename="../../ekko_memory_gui/views/dialogs/reindex_dialog.py" line="87"/>
        <source>Embedding…</source>
        <translation>正在生成向量…</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/reindex_dialog.py" line="80"/>
        <source>Embedding memories</source>
        <translation>正在为记忆生成向量</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/reindex_dialog.py" line="81"/>
        <source>Stopping after this batch…</source>
        <translation>本批完成后停止…</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/reindex_dialog.py" line="95"/>
        <source>Embedding failed: {error}</source>
        <translation>生成向量失败：{error}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/reindex_dialog.py" line="103"/>
        <source>{done} memories embedded; {left} without a vector.</source>
        <translation>已为 {done} 条记忆生成向量；{left} 条尚无向量。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/reindex_dialog.py" line="107"/>
        <source>Cancelled: embed again to finish.</source>
        <translation>已取消：再次生成即可完成。</translation>
    </message>
</context>
<context>
    <name>RejectSensitiveDialog</name>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/reject_sensitive_dialog.py" line="18"/>
        <source>Reject sensitive data</source>
        <translation>拒绝敏感数据</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/reject_sensitive_dialog.py" line="24"/>
        <source>“{title}” holds sensitive data ({kinds}). Rejecting it keeps it out of memory, but the conversation log still has the words.</source>
        <translation>“{title}”包含敏感数据（{kinds}）。拒绝后它不会进入记忆，但对话记录里仍有这些内容。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/reject_sensitive_dialog.py" line="30"/>
        <source>Also remove it from the conversation log ({n} messages)</source>
        <translation>同时从对话记录中删除（{n} 条消息）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/reject_sensitive_dialog.py" line="36"/>
        <source>The messages it came from and the summaries built on them are deleted for good</source>
        <translation>它来自的消息以及基于这些消息的摘要会被永久删除</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/reject_sensitive_dialog.py" line="42"/>
        <source>Reject</source>
        <translation>拒绝</translation>
    </message>
</context>
<context>
    <name>SearchHint</name>
    <message>
        <location filename="../../ekko_memory_gui/views/search_hint.py" line="17"/>
        <source>Search memories (香菜, database…)  Ctrl+F</source>
        <translation>搜索记忆（香菜、database…）  Ctrl+F</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/search_hint.py" line="18"/>
        <source>Search memories (香菜, database…)</source>
        <translation>搜索记忆（香菜、database…）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/search_hint.py" line="19"/>
        <source>Search memories  Ctrl+F</source>
        <translation>搜索记忆  Ctrl+F</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/search_hint.py" line="20"/>
        <source>Search memories</source>
        <translation>搜索记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/search_hint.py" line="21"/>
        <source>Search</source>
        <translation>搜索</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/search_hint.py" line="46"/>
        <source>Search memories (Ctrl+F)</source>
        <translation>搜索记忆（Ctrl+F）</translation>
    </message>
</context>
<context>
    <name>SentenceDialog</name>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/sentence_dialog.py" line="139"/>
        <source>New memory</source>
        <translation>新建记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/sentence_dialog.py" line="150"/>
        <source>Say it as you would to your agent: “I don&apos;t eat cilantro”, “Reply in English from now on”. Ekko shows what it understood before saving.</source>
        <translation>像对助手说话一样写下来：“我不吃香菜”“以后用英文回答”。保存前，Ekko 会告诉你它理解到了什么。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/sentence_dialog.py" line="157"/>
        <source>我不吃香菜 · I prefer short answers</source>
        <translation>我不吃香菜 · 回答简短一些</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/sentence_dialog.py" line="158"/>
        <source>What to remember</source>
        <translation>要记住的内容</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/sentence_dialog.py" line="160"/>
        <source>One sentence; Ekko reads it and shows what it will remember</source>
        <translation>一句话；Ekko 会读懂它，并显示将要记住的内容</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/sentence_dialog.py" line="177"/>
        <source>More fields…</source>
        <translation>更多字段…</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/sentence_dialog.py" line="180"/>
        <source>The full form: key, value, scope, confidence and expiry</source>
        <translation>完整表单：键、值、范围、置信度和过期时间</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/sentence_dialog.py" line="229"/>
        <source>Reading…</source>
        <translation>正在理解…</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/sentence_dialog.py" line="231"/>
        <source>Reading a sentence</source>
        <translation>正在理解一句话</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/sentence_dialog.py" line="258"/>
        <source>Ekko understood:</source>
        <translation>Ekko 理解为：</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/sentence_dialog.py" line="260"/>
        <source>Ekko understood {n} memories:</source>
        <translation>Ekko 理解出 {n} 条记忆：</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/sentence_dialog.py" line="265"/>
        <source>Ekko found no preference, fact or plan it knows in this sentence: it will be kept as a note in your own words.</source>
        <translation>Ekko 没有在这句话里找到它认识的偏好、事实或计划：它会按你的原话保存为一条笔记。</translation>
    </message>
</context>
<context>
    <name>SessionListModel</name>
    <message>
        <location filename="../../ekko_memory_gui/models/session_models.py" line="36"/>
        <source>Conversation</source>
        <translation>对话</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/session_models.py" line="38"/>
        <source>{n} messages</source>
        <translation>{n} 条消息</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/session_models.py" line="41"/>
        <source>Started</source>
        <translation>开始于</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/session_models.py" line="47"/>
        <source>Last active</source>
        <translation>最近活动</translation>
    </message>
</context>
<context>
    <name>SessionsView</name>
    <message>
        <location filename="../../ekko_memory_gui/views/sessions_view.py" line="141"/>
        <location filename="../../ekko_memory_gui/views/sessions_view.py" line="197"/>
        <source>Sessions</source>
        <translation>会话</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/sessions_view.py" line="160"/>
        <location filename="../../ekko_memory_gui/views/sessions_view.py" line="202"/>
        <source>Messages</source>
        <translation>消息</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/sessions_view.py" line="174"/>
        <location filename="../../ekko_memory_gui/views/sessions_view.py" line="207"/>
        <source>Memories this reply used</source>
        <translation>这条回复用到的记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/sessions_view.py" line="176"/>
        <source>Select one of the agent&apos;s replies; Enter opens a memory</source>
        <translation>选择助手的一条回复；按 Enter 打开一条记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/sessions_view.py" line="182"/>
        <location filename="../../ekko_memory_gui/views/sessions_view.py" line="318"/>
        <source>Select one of the agent&apos;s replies to see the memories it used.</source>
        <translation>选择助手的一条回复，查看它用到的记忆。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/sessions_view.py" line="191"/>
        <location filename="../../ekko_memory_gui/views/sessions_view.py" line="210"/>
        <source>Summary chain</source>
        <translation>摘要链</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/sessions_view.py" line="230"/>
        <source>Loading sessions</source>
        <translation>正在加载会话</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/sessions_view.py" line="274"/>
        <source>Loading summaries</source>
        <translation>正在加载摘要</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/sessions_view.py" line="290"/>
        <source>Goal</source>
        <translation>目标</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/sessions_view.py" line="291"/>
        <source>Constraints</source>
        <translation>约束</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/sessions_view.py" line="292"/>
        <source>Preferences</source>
        <translation>偏好</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/sessions_view.py" line="293"/>
        <source>Decisions</source>
        <translation>决策</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/sessions_view.py" line="294"/>
        <source>Done</source>
        <translation>已完成</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/sessions_view.py" line="295"/>
        <source>Open</source>
        <translation>待办</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/sessions_view.py" line="296"/>
        <source>Known issues</source>
        <translation>已知问题</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/sessions_view.py" line="322"/>
        <source>Loading…</source>
        <translation>加载中…</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/sessions_view.py" line="337"/>
        <source>This reply used {n} memories (Enter opens one):</source>
        <translation>这条回复用到了 {n} 条记忆（按 Enter 打开）：</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/sessions_view.py" line="339"/>
        <source>This reply used 1 memory (Enter opens it):</source>
        <translation>这条回复用到了 1 条记忆（按 Enter 打开）：</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/sessions_view.py" line="341"/>
        <source>This reply used no memory.</source>
        <translation>这条回复没有用到记忆。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/sessions_view.py" line="344"/>
        <source>Loading the memories a reply used</source>
        <translation>正在加载回复用到的记忆</translation>
    </message>
</context>
<context>
    <name>StoreProblem</name>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/store_problems.py" line="17"/>
        <source>{path} is a directory, not a database file; move it away</source>
        <translation>{path} 是一个文件夹，不是数据库文件；请把它移走</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/store_problems.py" line="20"/>
        <source>cannot create {path}: {detail}</source>
        <translation>无法创建文件夹 {path}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/store_problems.py" line="21"/>
        <source>{path} is not writable and holds no database yet</source>
        <translation>文件夹 {path} 不可写，里面还没有数据库</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/store_problems.py" line="24"/>
        <source>{path} is on a file system mounted read-only and holds no database yet</source>
        <translation>{path} 位于以只读方式挂载的文件系统上，且尚无数据库</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/store_problems.py" line="28"/>
        <source>{path} is locked by another program, which kept it for {seconds} s; close that program (or wait) and open it again</source>
        <translation>{path} 被另一个程序锁住，已等待 {seconds} 秒；请关闭该程序（或稍候）后重新打开</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/store_problems.py" line="33"/>
        <source>{path} could not be read or written ({detail}: a full disk or quota, a file size limit or a failing drive); free some space and open it again</source>
        <translation>无法读写 {path}（磁盘或配额已满、文件大小达到上限，或硬盘出现故障）；请腾出一些空间后重新打开</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/store_problems.py" line="38"/>
        <source>{path} is not a readable Ekko Memory database ({detail})</source>
        <translation>{path} 不是可读取的记忆库文件（可能已损坏，或是其他程序的文件）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/store_problems.py" line="41"/>
        <source>the database uses schema version {version}, newer than this release&apos;s {latest}; upgrade Ekko Memory to open it</source>
        <translation>数据库的结构版本为 {version}，比本版本支持的 {latest} 更新；请升级本应用后再打开</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/store_problems.py" line="46"/>
        <source>could not back the file up before upgrading it from schema version {version} ({detail}); the file was left as it was: free some disk space and open it again</source>
        <translation>从结构版本 {version} 升级前无法备份文件（{detail}）；文件保持原样：请腾出一些磁盘空间后重新打开</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/store_problems.py" line="51"/>
        <source>migration from schema version {version} failed: {detail}</source>
        <translation>从结构版本 {version} 升级失败（{detail}）；文件保持原样</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/store_problems.py" line="54"/>
        <source>{path} is read-only and has schema version {version}, but this release needs {latest}; make it writable to upgrade it</source>
        <translation>{path} 是只读的，结构版本为 {version}，而本版本需要 {latest}；请让它可写，以便升级</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/store_problems.py" line="59"/>
        <source>{path} is read-only: memories can be read but not changed (fix the file&apos;s permissions to write)</source>
        <translation>{path} 是只读的：可以读取记忆，但不能修改（修改文件权限后即可写入）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/store_problems.py" line="64"/>
        <source>{path} is on a file system mounted read-only: memories can be read but not changed (mount it read-write to write)</source>
        <translation>{path} 位于以只读方式挂载的文件系统上：可以读取记忆，但不能修改（以读写方式重新挂载后即可写入）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/store_problems.py" line="69"/>
        <source>{path} is read-only and cannot be opened ({detail})</source>
        <translation>{path} 是只读的，且无法打开</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/store_problems.py" line="72"/>
        <source>{path} was deleted, moved or replaced by another program while it was open; nothing more is read from or written to the file that was there: open the store again</source>
        <translation>{path} 在打开期间被其他程序删除、移动或替换；不会再读写原来的文件：请重新打开存储</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/store_problems.py" line="78"/>
        <source>{location} became read-only ({detail})</source>
        <translation>{location} 变成了只读</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/store_problems.py" line="79"/>
        <source>{location} is damaged ({detail})</source>
        <translation>{location} 已损坏</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/store_problems.py" line="80"/>
        <source>PostgreSQL support needs psycopg: pip install &apos;ekko-memory[postgres]&apos;</source>
        <translation>使用 PostgreSQL 需要 psycopg：pip install &apos;ekko-memory[postgres]&apos;</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/store_problems.py" line="83"/>
        <source>the database&apos;s encoding is {encoding}, but Ekko Memory stores Chinese text and needs UTF8 (CREATE DATABASE … ENCODING &apos;UTF8&apos;)</source>
        <translation>数据库的编码是 {encoding}，但存储中文需要 UTF8（CREATE DATABASE … ENCODING &apos;UTF8&apos;）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/store_problems.py" line="88"/>
        <source>the server is read-only (a standby?): memories can be read but not changed</source>
        <translation>服务器是只读的（备用服务器？）：可以读取记忆，但不能修改</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/store_problems.py" line="92"/>
        <source>the server is read-only (a standby?) and the store has schema version {version}, but this release needs {latest}</source>
        <translation>服务器是只读的（备用服务器？），存储的结构版本为 {version}，而本版本需要 {latest}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/store_problems.py" line="97"/>
        <source>cannot connect to PostgreSQL at {location}: {detail} (is the server running and the URL, user and password right?)</source>
        <translation>无法连接数据库服务器 {location}（服务器是否在运行？地址、用户名和密码是否正确？）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/store_problems.py" line="104"/>
        <source>cannot connect to PostgreSQL at {location}: {detail} (is the server running and the URL, user and password right?)</source>
        <comment>the server refused the login</comment>
        <translation>数据库服务器 {location} 拒绝了登录：请检查用户名和密码</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/store_problems.py" line="110"/>
        <source>PostgreSQL at {location} refused the store: {detail}</source>
        <translation>数据库服务器 {location} 拒绝了存储：{detail}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/labels/store_problems.py" line="113"/>
        <source>global memories ship with the app and are read-only</source>
        <translation>全局记忆随应用提供，只读</translation>
    </message>
</context>
<context>
    <name>StoreStatusBar</name>
    <message>
        <location filename="../../ekko_memory_gui/views/status_bar.py" line="57"/>
        <source>Open folder</source>
        <translation>打开文件夹</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/status_bar.py" line="64"/>
        <source>Open the store again (after closing the program that held it)</source>
        <translation>重新打开存储（先关闭占用它的程序）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/status_bar.py" line="120"/>
        <source>Opening {folder}…</source>
        <translation>正在打开 {folder}…</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/status_bar.py" line="143"/>
        <source>workspace</source>
        <translation>工作区</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/status_bar.py" line="143"/>
        <source>user</source>
        <translation>用户</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/status_bar.py" line="61"/>
        <source>Retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/status_bar.py" line="80"/>
        <source>Memory paused</source>
        <translation>记忆已暂停</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/status_bar.py" line="84"/>
        <source>The agent neither reads nor writes memory until you resume it</source>
        <translation>在你恢复之前，智能体既不读取也不写入记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/status_bar.py" line="156"/>
        <source>store unavailable: {reason}. Press F5 to try again.</source>
        <translation>存储不可用：{reason}。按 F5 重试。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/status_bar.py" line="164"/>
        <source>Saved in the PostgreSQL database {server}</source>
        <translation>已保存在 PostgreSQL 数据库 {server}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/status_bar.py" line="166"/>
        <source>Saved on this computer</source>
        <translation>已保存在本机</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/status_bar.py" line="169"/>
        <source>1 memory</source>
        <translation>1 条记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/status_bar.py" line="169"/>
        <source>{n} memories</source>
        <translation>{n} 条记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/status_bar.py" line="192"/>
        <source>{store} store disabled: {reason}. Check the server, the URL and the password, then Retry.</source>
        <translation>{store}存储已停用：{reason}。请检查服务器、URL 和密码，然后重试。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/status_bar.py" line="196"/>
        <source>{store} store disabled: {reason}. Memories there cannot be read; check the file and reopen the workspace.</source>
        <translation>{store}存储已停用：{reason}。其中的记忆无法读取；请检查文件后重新打开工作区。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/status_bar.py" line="200"/>
        <source>{store} store is read-only: {reason}. You can browse; changes are not possible.</source>
        <translation>{store}存储是只读的：{reason}。可以浏览，但不能修改。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/status_bar.py" line="202"/>
        <source>{store} store degraded: {reason}</source>
        <translation>{store}存储降级：{reason}</translation>
    </message>
</context>
<context>
    <name>SummaryListModel</name>
    <message>
        <location filename="../../ekko_memory_gui/models/session_models.py" line="68"/>
        <source>Created</source>
        <translation>创建时间</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/models/session_models.py" line="70"/>
        <source>Summary</source>
        <translation>摘要</translation>
    </message>
</context>
<context>
    <name>SupersedeChainView</name>
    <message>
        <location filename="../../ekko_memory_gui/views/supersede_chain_view.py" line="180"/>
        <source>now</source>
        <translation>当前</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/supersede_chain_view.py" line="186"/>
        <source>{actor}, approved by you</source>
        <translation>{actor}，由你批准</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/supersede_chain_view.py" line="203"/>
        <source>Version {when}: {title}, press Enter to view it</source>
        <translation>版本 {when}：{title}，按回车键查看</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/supersede_chain_view.py" line="209"/>
        <source>Revert to this</source>
        <translation>回退到此版本</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/supersede_chain_view.py" line="213"/>
        <source>Make this version the current one again (a new version; nothing is rewritten)</source>
        <translation>让这个版本重新成为当前版本（会创建新版本，不改写任何内容）</translation>
    </message>
</context>
<context>
    <name>TaskProgress</name>
    <message>
        <location filename="../../ekko_memory_gui/views/task_progress.py" line="23"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/task_progress.py" line="39"/>
        <source>Compacting the {store} store</source>
        <translation>正在压缩{store}存储</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/task_progress.py" line="41"/>
        <source>Writing</source>
        <translation>正在写入</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/task_progress.py" line="42"/>
        <source>Importing</source>
        <translation>正在导入</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/task_progress.py" line="43"/>
        <source>Deleting memories</source>
        <translation>正在删除记忆</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/task_progress.py" line="44"/>
        <source>Deleting messages</source>
        <translation>正在删除消息</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/task_progress.py" line="45"/>
        <source>Compacting the files</source>
        <translation>正在压缩文件</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/task_progress.py" line="46"/>
        <source>Checking backups</source>
        <translation>正在检查备份</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/task_progress.py" line="47"/>
        <source>Searching for what was purged</source>
        <translation>正在查找被清除的内容</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/task_progress.py" line="48"/>
        <location filename="../../ekko_memory_gui/views/task_progress.py" line="91"/>
        <source>Done</source>
        <translation>已完成</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/task_progress.py" line="49"/>
        <source>Embedding the workspace store&apos;s memories</source>
        <translation>正在为工作区存储的记忆生成向量</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/task_progress.py" line="50"/>
        <source>Embedding the user store&apos;s memories</source>
        <translation>正在为用户存储的记忆生成向量</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/task_progress.py" line="67"/>
        <source>This step runs in one transaction per store; it cannot stop halfway.</source>
        <translation>这一步在每个存储中以单个事务执行，不能中途停止。</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/task_progress.py" line="86"/>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/task_progress.py" line="98"/>
        <source>Stopping after this batch…</source>
        <translation>本批完成后停止…</translation>
    </message>
</context>
<context>
    <name>UnderstoodMemory</name>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/sentence_dialog.py" line="61"/>
        <location filename="../../ekko_memory_gui/views/dialogs/sentence_dialog.py" line="84"/>
        <source>Category</source>
        <translation>分类</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/sentence_dialog.py" line="68"/>
        <location filename="../../ekko_memory_gui/views/dialogs/sentence_dialog.py" line="85"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/sentence_dialog.py" line="74"/>
        <source>Until</source>
        <translation>期限</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/sentence_dialog.py" line="79"/>
        <source>Always (until you change it)</source>
        <translation>一直有效（直到你修改）</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/sentence_dialog.py" line="80"/>
        <source>Until the end of today</source>
        <translation>到今天结束</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/sentence_dialog.py" line="81"/>
        <source>For a week</source>
        <translation>一周</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/sentence_dialog.py" line="86"/>
        <source>Lasts</source>
        <translation>有效期</translation>
    </message>
</context>
<context>
    <name>ValueEditor</name>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/value_editor.py" line="98"/>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/value_editor.py" line="103"/>
        <source>items separated by commas: 香菜, 葱</source>
        <translation>用逗号分隔的条目：香菜, 葱</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/value_editor.py" line="115"/>
        <source>Fields of the value</source>
        <translation>值的字段</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/value_editor.py" line="116"/>
        <source>Field</source>
        <translation>字段</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/value_editor.py" line="116"/>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/value_editor.py" line="121"/>
        <source>Add field</source>
        <translation>添加字段</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/value_editor.py" line="123"/>
        <source>Remove field</source>
        <translation>删除字段</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/value_editor.py" line="189"/>
        <source>Text</source>
        <translation>文本</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/value_editor.py" line="190"/>
        <source>A number</source>
        <translation>数字</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/value_editor.py" line="191"/>
        <source>Yes or no</source>
        <translation>是或否</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/value_editor.py" line="192"/>
        <source>A list</source>
        <translation>列表</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/value_editor.py" line="193"/>
        <source>Fields and values, e.g. ingredient = 香菜, amount = 少量</source>
        <translation>字段和值，例如 ingredient = 香菜，amount = 少量</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/value_editor.py" line="194"/>
        <source>Any JSON value</source>
        <translation>任意 JSON 值</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/value_editor.py" line="251"/>
        <source>The value is not valid JSON: {error}</source>
        <translation>值不是有效的 JSON：{error}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/dialogs/value_editor.py" line="259"/>
        <source>Each field name may appear once.</source>
        <translation>每个字段名只能出现一次。</translation>
    </message>
</context>
<context>
    <name>_CopyBlock</name>
    <message>
        <location filename="../../ekko_memory_gui/views/first_run.py" line="79"/>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/first_run.py" line="80"/>
        <source>Copy: {what}</source>
        <translation>复制：{what}</translation>
    </message>
    <message>
        <location filename="../../ekko_memory_gui/views/first_run.py" line="95"/>
        <source>Copied</source>
        <translation>已复制</translation>
    </message>
</context>
</TS>
