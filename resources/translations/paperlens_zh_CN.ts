<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AboutDialog</name>
    <message>
        <location filename="../../gui/about.py" line="68"/>
        <source>About Paperlens</source>
        <translation>关于 Paperlens</translation>
    </message>
    <message>
        <location filename="../../gui/about.py" line="71"/>
        <source>&lt;p&gt;PDFs and images to Markdown, on your own machine.&lt;/p&gt;</source>
        <translation>&lt;p&gt;在您自己的电脑上把 PDF 和图片转换为 Markdown。&lt;/p&gt;</translation>
    </message>
    <message>
        <location filename="../../gui/about.py" line="80"/>
        <source>Component</source>
        <translation>组件</translation>
    </message>
    <message>
        <location filename="../../gui/about.py" line="80"/>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <location filename="../../gui/about.py" line="80"/>
        <source>Licence</source>
        <translation>许可证</translation>
    </message>
    <message>
        <location filename="../../gui/about.py" line="86"/>
        <source>&lt;p&gt;Paperlens is free software under the GNU Affero General Public License, version 3 or later (PyMuPDF, which renders every page, is AGPL). It comes with no warranty.&lt;/p&gt;&lt;p&gt;Models are fetched from their publishers&apos; packages and keep their own licences:&lt;/p&gt;</source>
        <translation>&lt;p&gt;Paperlens 是自由软件，以 GNU Affero 通用公共许可证第 3 版或更高版本发布（渲染每一页的 PyMuPDF 采用 AGPL）。本软件不提供任何担保。&lt;/p&gt;&lt;p&gt;模型从其发布者的软件包中获取，并保留各自的许可证：&lt;/p&gt;</translation>
    </message>
</context>
<context>
    <name>BlockCopier</name>
    <message>
        <location filename="../../gui/copy_block.py" line="74"/>
        <source>LaTeX copied: {0}</source>
        <translation>已复制 LaTeX：{0}</translation>
    </message>
    <message>
        <location filename="../../gui/copy_block.py" line="89"/>
        <source>Markdown</source>
        <translation>Markdown</translation>
    </message>
    <message>
        <location filename="../../gui/copy_block.py" line="89"/>
        <source>HTML</source>
        <translation>HTML</translation>
    </message>
    <message>
        <location filename="../../gui/copy_block.py" line="90"/>
        <source>Table copied as {0}</source>
        <translation>表格已复制为 {0}</translation>
    </message>
</context>
<context>
    <name>DeviceText</name>
    <message>
        <location filename="../../gui/device_text.py" line="14"/>
        <location filename="../../gui/device_text.py" line="20"/>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <location filename="../../gui/device_text.py" line="14"/>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <location filename="../../gui/device_text.py" line="15"/>
        <source>Automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <location filename="../../gui/device_text.py" line="21"/>
        <source>WebGPU (Vulkan)</source>
        <translation>WebGPU（Vulkan）</translation>
    </message>
    <message>
        <location filename="../../gui/device_text.py" line="22"/>
        <source>DirectML</source>
        <translation>DirectML</translation>
    </message>
    <message>
        <location filename="../../gui/device_text.py" line="28"/>
        <source>the default</source>
        <translation>默认值</translation>
    </message>
    <message>
        <location filename="../../gui/device_text.py" line="29"/>
        <source>the settings file</source>
        <translation>设置文件</translation>
    </message>
    <message>
        <location filename="../../gui/device_text.py" line="30"/>
        <source>the environment variable PAPERLENS_MODEL_ONNX_DEVICE</source>
        <translation>环境变量 PAPERLENS_MODEL_ONNX_DEVICE</translation>
    </message>
    <message>
        <location filename="../../gui/device_text.py" line="35"/>
        <source>{0}, from {1}</source>
        <translation>{0}，来自{1}</translation>
    </message>
    <message>
        <location filename="../../gui/device_text.py" line="41"/>
        <source>Not decided yet: the next document decides</source>
        <translation>尚未决定：由下一个文档决定</translation>
    </message>
    <message>
        <location filename="../../gui/device_text.py" line="51"/>
        <source>the GPU took {0:.2f}× the CPU&apos;s time</source>
        <translation>GPU 用时为 CPU 的 {0:.2f} 倍</translation>
    </message>
    <message>
        <location filename="../../gui/device_text.py" line="54"/>
        <source>measured on {0}</source>
        <translation>测量于 {0}</translation>
    </message>
    <message>
        <location filename="../../gui/device_text.py" line="63"/>
        <source>Automatic: the first document measures the GPU against the CPU and keeps the faster one.</source>
        <translation>自动：第一个文档会比较 GPU 与 CPU 的速度，并保留较快的一个。</translation>
    </message>
    <message>
        <location filename="../../gui/device_text.py" line="65"/>
        <source>Your choice applies from the first page of the next document.</source>
        <translation>您的选择从下一个文档的第一页开始生效。</translation>
    </message>
    <message>
        <location filename="../../gui/device_text.py" line="68"/>
        <source>You chose it in the settings.</source>
        <translation>由您在设置中选择。</translation>
    </message>
    <message>
        <location filename="../../gui/device_text.py" line="71"/>
        <source>A saved measurement chose it.</source>
        <translation>由已保存的测量结果选择。</translation>
    </message>
    <message>
        <location filename="../../gui/device_text.py" line="74"/>
        <source>Measured in this session.</source>
        <translation>在本次会话中测量得出。</translation>
    </message>
    <message>
        <location filename="../../gui/device_text.py" line="77"/>
        <source>Running on the CPU instead of the GPU.</source>
        <translation>改用 CPU 运行，而非 GPU。</translation>
    </message>
    <message>
        <location filename="../../gui/device_text.py" line="79"/>
        <source>A discrete GPU, used without measuring.</source>
        <translation>独立显卡，无需测量即直接使用。</translation>
    </message>
    <message>
        <location filename="../../gui/device_text.py" line="85"/>
        <source>This Intel graphics generation runs these models slower than the CPU, so Paperlens uses the CPU.</source>
        <translation>这一代 Intel 显卡运行这些模型比 CPU 更慢，因此 Paperlens 使用 CPU。</translation>
    </message>
    <message>
        <location filename="../../gui/device_text.py" line="88"/>
        <location filename="../../gui/device_text.py" line="90"/>
        <source>No usable GPU was found.</source>
        <translation>未找到可用的 GPU。</translation>
    </message>
    <message>
        <location filename="../../gui/device_text.py" line="92"/>
        <source>The GPU could not be used.</source>
        <translation>无法使用 GPU。</translation>
    </message>
    <message>
        <location filename="../../gui/device_text.py" line="94"/>
        <source>This system has no GPU backend Paperlens can use.</source>
        <translation>此系统没有 Paperlens 可用的 GPU 后端。</translation>
    </message>
    <message>
        <location filename="../../gui/device_text.py" line="96"/>
        <source>GPUs are used on Windows (DirectML) and Linux x86-64 (WebGPU) only.</source>
        <translation>仅在 Windows（DirectML）和 Linux x86-64（WebGPU）上使用 GPU。</translation>
    </message>
    <message>
        <location filename="../../gui/device_text.py" line="98"/>
        <source>Measuring the GPU failed; the CPU is used this time.</source>
        <translation>GPU 测量失败；本次使用 CPU。</translation>
    </message>
    <message>
        <location filename="../../gui/device_text.py" line="100"/>
        <source>Measuring the GPU took too long; the CPU is used this time.</source>
        <translation>GPU 测量耗时过长；本次使用 CPU。</translation>
    </message>
    <message>
        <location filename="../../gui/device_text.py" line="102"/>
        <source>The GPU measurement was too noisy to trust; the CPU is used this time and the next run measures again.</source>
        <translation>GPU 测量结果波动太大，不可信；本次使用 CPU，下次运行时重新测量。</translation>
    </message>
    <message>
        <location filename="../../gui/device_text.py" line="105"/>
        <source>The GPU read the test images differently from the CPU, so the CPU is used.</source>
        <translation>GPU 对测试图片的识别结果与 CPU 不一致，因此使用 CPU。</translation>
    </message>
    <message>
        <location filename="../../gui/device_text.py" line="108"/>
        <source>The GPU was not at least 20% faster than the CPU.</source>
        <translation>GPU 没有比 CPU 快至少 20%。</translation>
    </message>
    <message>
        <location filename="../../gui/device_text.py" line="110"/>
        <source>The GPU could not run the models; the CPU took over.</source>
        <translation>GPU 无法运行这些模型；已由 CPU 接管。</translation>
    </message>
    <message>
        <location filename="../../gui/device_text.py" line="112"/>
        <source>The Vulkan driver the GPU backend needs is not installed.</source>
        <translation>未安装 GPU 后端所需的 Vulkan 驱动。</translation>
    </message>
    <message>
        <location filename="../../gui/device_text.py" line="114"/>
        <source>The GPUs could not be listed through Vulkan.</source>
        <translation>无法通过 Vulkan 列出 GPU。</translation>
    </message>
    <message>
        <location filename="../../gui/device_text.py" line="116"/>
        <source>No GPU that Paperlens may use is visible to the GPU backend.</source>
        <translation>GPU 后端看不到任何 Paperlens 可使用的 GPU。</translation>
    </message>
    <message>
        <location filename="../../gui/device_text.py" line="118"/>
        <source>The GPU backend offered no usable adapter.</source>
        <translation>GPU 后端没有提供可用的适配器。</translation>
    </message>
    <message>
        <location filename="../../gui/device_text.py" line="120"/>
        <source>Another Paperlens process was measuring the GPU; the CPU is used this time.</source>
        <translation>另一个 Paperlens 进程正在测量 GPU；本次使用 CPU。</translation>
    </message>
    <message>
        <location filename="../../gui/device_text.py" line="123"/>
        <source>Measuring the GPU failed earlier in this session and is not retried until Paperlens starts again.</source>
        <translation>本次会话中 GPU 测量已失败，在重新启动 Paperlens 之前不会重试。</translation>
    </message>
    <message>
        <location filename="../../gui/device_text.py" line="126"/>
        <source>The GPU could not be selected reliably among several; the CPU is used.</source>
        <translation>无法在多个 GPU 中可靠地选定一个；使用 CPU。</translation>
    </message>
    <message>
        <location filename="../../gui/device_text.py" line="147"/>
        <source>Reason recorded: {0}</source>
        <translation>记录的原因：{0}</translation>
    </message>
    <message>
        <location filename="../../gui/device_text.py" line="163"/>
        <source>Last time Paperlens ran models on: {0}</source>
        <translation>上次 Paperlens 运行模型所用的设备：{0}</translation>
    </message>
</context>
<context>
    <name>DropArea</name>
    <message>
        <location filename="../../gui/drop_area.py" line="32"/>
        <source>Drop PDFs, images or folders here
or click to choose files</source>
        <translation>将 PDF、图片或文件夹拖放到这里
或点击选择文件</translation>
    </message>
    <message>
        <location filename="../../gui/drop_area.py" line="38"/>
        <source>PDF, XPS, EPUB, CBZ, Word, Excel, PowerPoint, OpenDocument, PNG, JPEG, TIFF, BMP and WebP</source>
        <translation>PDF、XPS、EPUB、CBZ、Word、Excel、PowerPoint、OpenDocument、PNG、JPEG、TIFF、BMP 和 WebP</translation>
    </message>
</context>
<context>
    <name>Export</name>
    <message>
        <location filename="../../gui/export.py" line="41"/>
        <source>Markdown, with its images (.md)</source>
        <translation>Markdown 及其图片 (.md)</translation>
    </message>
    <message>
        <location filename="../../gui/export.py" line="42"/>
        <source>JSON and content list (.json)</source>
        <translation>JSON 与内容列表 (.json)</translation>
    </message>
    <message>
        <location filename="../../gui/export.py" line="43"/>
        <source>Searchable PDF: the pages with their text (.searchable.pdf)</source>
        <translation>可搜索 PDF：原页面加文字层 (.searchable.pdf)</translation>
    </message>
    <message>
        <location filename="../../gui/export.py" line="44"/>
        <source>Word document with equations and tables (.docx)</source>
        <translation>Word 文档，含公式与表格 (.docx)</translation>
    </message>
    <message>
        <location filename="../../gui/export.py" line="45"/>
        <source>Excel workbook, one sheet per table (.xlsx)</source>
        <translation>Excel 工作簿，每个表格一张工作表 (.xlsx)</translation>
    </message>
    <message>
        <location filename="../../gui/export.py" line="46"/>
        <source>ALTO 4 XML: blocks, lines and words with their boxes (.alto.xml)</source>
        <translation>ALTO 4 XML：带坐标框的块、行和词 (.alto.xml)</translation>
    </message>
    <message>
        <location filename="../../gui/export.py" line="48"/>
        <source>hOCR: blocks, lines and words with their boxes (.hocr)</source>
        <translation>hOCR：带坐标框的块、行和词 (.hocr)</translation>
    </message>
    <message>
        <location filename="../../gui/export.py" line="65"/>
        <source>There is nothing to export yet: the document has no Markdown.</source>
        <translation>还没有可导出的内容：该文档尚无 Markdown。</translation>
    </message>
    <message>
        <location filename="../../gui/export.py" line="91"/>
        <location filename="../../gui/export.py" line="194"/>
        <location filename="../../gui/export.py" line="215"/>
        <source>Cannot export to {0}: {1}.</source>
        <translation>无法导出到 {0}：{1}。</translation>
    </message>
    <message>
        <location filename="../../gui/export.py" line="181"/>
        <source>{0}: convert it again to export it as PDF, Word or Excel (it was converted in an earlier session).</source>
        <translation>{0}：此文档是在之前的会话中转换的，请重新转换后再导出为 PDF、Word 或 Excel。</translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <location filename="../../gui/export.py" line="225"/>
        <location filename="../../gui/export.py" line="245"/>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <location filename="../../gui/export.py" line="227"/>
        <source>Export {0} document(s) as:</source>
        <translation>将 {0} 个文档导出为：</translation>
    </message>
    <message>
        <location filename="../../gui/export.py" line="237"/>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <location filename="../../gui/export.py" line="239"/>
        <source>Folder:</source>
        <translation>文件夹：</translation>
    </message>
    <message>
        <location filename="../../gui/export.py" line="259"/>
        <source>Export to folder</source>
        <translation>导出到文件夹</translation>
    </message>
</context>
<context>
    <name>Exporter</name>
    <message>
        <location filename="../../gui/export.py" line="298"/>
        <source>Exporting {0} document(s)…</source>
        <translation>正在导出 {0} 个文档…</translation>
    </message>
    <message>
        <location filename="../../gui/export.py" line="317"/>
        <source>Exported {0} file(s) to {1}</source>
        <translation>已将 {0} 个文件导出到 {1}</translation>
    </message>
    <message>
        <location filename="../../gui/export.py" line="324"/>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <location filename="../../gui/export.py" line="325"/>
        <source>Some exports could not be written:</source>
        <translation>部分导出未能写入：</translation>
    </message>
    <message>
        <location filename="../../gui/export.py" line="333"/>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
</context>
<context>
    <name>LanguagesEdit</name>
    <message>
        <location filename="../../gui/reading_options.py" line="84"/>
        <source>automatic: each line&apos;s script is found</source>
        <translation>自动：逐行识别文字种类</translation>
    </message>
    <message>
        <location filename="../../gui/reading_options.py" line="86"/>
        <source>Tesseract language codes every scanned line is read with, joined by +, as paperlens-cli --lang takes them: rus+eng reads Russian and English. Empty: Paperlens finds the script of each line itself.</source>
        <translation>用于识别每一行扫描文字的 Tesseract 语言代码，用 + 连接，与 paperlens-cli --lang 的写法相同：rus+eng 表示按俄语和英语识别。留空：Paperlens 自行判断每一行的文字种类。</translation>
    </message>
</context>
<context>
    <name>LogWindow</name>
    <message>
        <location filename="../../gui/log_window.py" line="61"/>
        <source>Paperlens log</source>
        <translation>Paperlens 日志</translation>
    </message>
    <message>
        <location filename="../../gui/log_window.py" line="70"/>
        <source>Copy all</source>
        <translation>全部复制</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../gui/main_window.py" line="99"/>
        <source>Automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="100"/>
        <source>Text layer of digital PDFs</source>
        <translation>数字 PDF 的文本层</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="101"/>
        <source>OCR every page</source>
        <translation>每一页都进行 OCR</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="104"/>
        <source>Automatic reads the text layer where it is usable and runs OCR elsewhere.</source>
        <translation>“自动”在文本层可用时读取文本层，其他情况运行 OCR。</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="112"/>
        <source>Read text with:</source>
        <translation>文本读取方式：</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="113"/>
        <source>Pages:</source>
        <translation>页码：</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="131"/>
        <source>Device: chosen when the first document starts</source>
        <translation>设备：在第一个文档开始时选择</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="162"/>
        <source>Not added: {0} Correct the pages or clear them, then add the documents again.</source>
        <translation>未添加：{0} 请改正或清空页码，然后重新添加文档。</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="173"/>
        <source>Open documents</source>
        <translation>打开文档</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="174"/>
        <source>Documents and images ({0});;All files (*)</source>
        <translation>文档和图片 ({0});;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="179"/>
        <source>Open a folder of documents</source>
        <translation>打开文档文件夹</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="250"/>
        <source>Markdown of {0} copied</source>
        <translation>已复制 {0} 的 Markdown</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="288"/>
        <source>The password did not open {0}. Try again:</source>
        <translation>密码无法打开 {0}。请重试：</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="289"/>
        <source>{0} is encrypted. Enter its password:</source>
        <translation>{0} 已加密。请输入密码：</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="290"/>
        <source>Password needed</source>
        <translation>需要密码</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="305"/>
        <source>{0} of {1} documents</source>
        <translation>{0}/{1} 个文档</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="308"/>
        <source>Converting {0}</source>
        <translation>正在转换 {0}</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="326"/>
        <source>{0} done: {1}</source>
        <translation>{0} 已完成：{1}</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="331"/>
        <source>{0} failed: {1}</source>
        <translation>{0} 失败：{1}</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="334"/>
        <source>{0} cancelled</source>
        <translation>{0} 已取消</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="343"/>
        <location filename="../../gui/main_window.py" line="367"/>
        <source>Device: {0}</source>
        <translation>设备：{0}</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="360"/>
        <source>Downloading model {0}: {1}%</source>
        <translation>正在下载模型 {0}：{1}%</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="363"/>
        <source>Downloading model {0}: {1:.1f} MB</source>
        <translation>正在下载模型 {0}：{1:.1f} MB</translation>
    </message>
    <message>
        <location filename="../../gui/main_window.py" line="396"/>
        <source>Stopping the conversion…</source>
        <translation>正在停止转换…</translation>
    </message>
</context>
<context>
    <name>MarkdownPane</name>
    <message>
        <location filename="../../gui/markdown_pane.py" line="199"/>
        <source>Rendered</source>
        <translation>渲染视图</translation>
    </message>
    <message>
        <location filename="../../gui/markdown_pane.py" line="200"/>
        <source>Markdown source</source>
        <translation>Markdown 源码</translation>
    </message>
    <message>
        <location filename="../../gui/markdown_pane.py" line="218"/>
        <source>Failed: {0}</source>
        <translation>失败：{0}</translation>
    </message>
    <message>
        <location filename="../../gui/markdown_pane.py" line="220"/>
        <source>Cancelled; nothing was written.</source>
        <translation>已取消；未写入任何内容。</translation>
    </message>
    <message>
        <location filename="../../gui/markdown_pane.py" line="222"/>
        <source>The Markdown appears here when the document is done.</source>
        <translation>文档完成后，Markdown 会显示在这里。</translation>
    </message>
    <message>
        <location filename="../../gui/markdown_pane.py" line="242"/>
        <source>The Markdown is no longer at {0} ({1}).</source>
        <translation>Markdown 已不在 {0}（{1}）。</translation>
    </message>
</context>
<context>
    <name>ModelTable</name>
    <message>
        <location filename="../../gui/model_list.py" line="19"/>
        <source>{0:.1f} MB</source>
        <translation>{0:.1f} MB</translation>
    </message>
    <message>
        <location filename="../../gui/model_list.py" line="29"/>
        <source>Text detection</source>
        <translation>文本检测</translation>
    </message>
    <message>
        <location filename="../../gui/model_list.py" line="30"/>
        <source>Text recognition</source>
        <translation>文本识别</translation>
    </message>
    <message>
        <location filename="../../gui/model_list.py" line="31"/>
        <source>Text direction</source>
        <translation>文本方向</translation>
    </message>
    <message>
        <location filename="../../gui/model_list.py" line="32"/>
        <source>Layout</source>
        <translation>版面分析</translation>
    </message>
    <message>
        <location filename="../../gui/model_list.py" line="33"/>
        <source>Tables</source>
        <translation>表格</translation>
    </message>
    <message>
        <location filename="../../gui/model_list.py" line="34"/>
        <source>Formulas</source>
        <translation>公式</translation>
    </message>
    <message>
        <location filename="../../gui/model_list.py" line="35"/>
        <source>Page orientation</source>
        <translation>页面方向</translation>
    </message>
    <message>
        <location filename="../../gui/model_list.py" line="36"/>
        <source>Text in other scripts</source>
        <translation>其他文字种类的文本</translation>
    </message>
    <message>
        <location filename="../../gui/model_list.py" line="37"/>
        <source>Script detection</source>
        <translation>文字种类识别</translation>
    </message>
    <message>
        <location filename="../../gui/model_list.py" line="38"/>
        <source>Word list</source>
        <translation>词表</translation>
    </message>
    <message>
        <location filename="../../gui/model_list.py" line="57"/>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../gui/model_list.py" line="57"/>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <location filename="../../gui/model_list.py" line="57"/>
        <source>Task</source>
        <translation>用途</translation>
    </message>
    <message>
        <location filename="../../gui/model_list.py" line="58"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../gui/model_list.py" line="91"/>
        <source>{0}
Licence: {1}</source>
        <translation>{0}
许可证：{1}</translation>
    </message>
    <message>
        <location filename="../../gui/model_list.py" line="91"/>
        <source>no file yet</source>
        <translation>尚无文件</translation>
    </message>
    <message>
        <location filename="../../gui/model_list.py" line="100"/>
        <source>Download</source>
        <translation>下载</translation>
    </message>
    <message>
        <location filename="../../gui/model_list.py" line="109"/>
        <source>No model available yet</source>
        <translation>暂无可用模型</translation>
    </message>
    <message>
        <location filename="../../gui/model_list.py" line="111"/>
        <source>Missing from this installation: reinstall Paperlens</source>
        <translation>此安装中缺少该模型：请重新安装 Paperlens</translation>
    </message>
    <message>
        <location filename="../../gui/model_list.py" line="113"/>
        <source>Shipped with Paperlens</source>
        <translation>随 Paperlens 附带</translation>
    </message>
    <message>
        <location filename="../../gui/model_list.py" line="115"/>
        <source>Not downloaded</source>
        <translation>未下载</translation>
    </message>
    <message>
        <location filename="../../gui/model_list.py" line="117"/>
        <source>Installed, verified</source>
        <translation>已安装，已校验</translation>
    </message>
    <message>
        <location filename="../../gui/model_list.py" line="118"/>
        <source>Installed (checked on first use)</source>
        <translation>已安装（首次使用时校验）</translation>
    </message>
    <message>
        <location filename="../../gui/model_list.py" line="130"/>
        <source>Downloading…</source>
        <translation>正在下载…</translation>
    </message>
    <message>
        <location filename="../../gui/model_list.py" line="158"/>
        <source>Download failed</source>
        <translation>下载失败</translation>
    </message>
</context>
<context>
    <name>PageRangeEdit</name>
    <message>
        <location filename="../../gui/reading_options.py" line="29"/>
        <source>every page, or e.g. 1-3,7</source>
        <translation>全部页面，或如 1-3,7</translation>
    </message>
    <message>
        <location filename="../../gui/reading_options.py" line="30"/>
        <source>Pages to read, as paperlens-cli --pages takes them: 1-3,7 reads pages 1, 2, 3 and 7. Empty: every page.</source>
        <translation>要读取的页面，写法与 paperlens-cli --pages 相同：1-3,7 读取第 1、2、3 和 7 页。留空：全部页面。</translation>
    </message>
</context>
<context>
    <name>PageView</name>
    <message>
        <location filename="../../gui/page_view.py" line="36"/>
        <source>Title</source>
        <translation>标题</translation>
    </message>
    <message>
        <location filename="../../gui/page_view.py" line="37"/>
        <source>Section header</source>
        <translation>章节标题</translation>
    </message>
    <message>
        <location filename="../../gui/page_view.py" line="38"/>
        <source>Text</source>
        <translation>正文</translation>
    </message>
    <message>
        <location filename="../../gui/page_view.py" line="39"/>
        <source>List item</source>
        <translation>列表项</translation>
    </message>
    <message>
        <location filename="../../gui/page_view.py" line="40"/>
        <source>Table</source>
        <translation>表格</translation>
    </message>
    <message>
        <location filename="../../gui/page_view.py" line="41"/>
        <source>Formula</source>
        <translation>公式</translation>
    </message>
    <message>
        <location filename="../../gui/page_view.py" line="42"/>
        <source>Figure</source>
        <translation>图片</translation>
    </message>
    <message>
        <location filename="../../gui/page_view.py" line="43"/>
        <source>Caption</source>
        <translation>图表标题</translation>
    </message>
    <message>
        <location filename="../../gui/page_view.py" line="44"/>
        <source>Page header</source>
        <translation>页眉</translation>
    </message>
    <message>
        <location filename="../../gui/page_view.py" line="45"/>
        <source>Page footer</source>
        <translation>页脚</translation>
    </message>
    <message>
        <location filename="../../gui/page_view.py" line="46"/>
        <source>Footnote</source>
        <translation>脚注</translation>
    </message>
    <message>
        <location filename="../../gui/page_view.py" line="47"/>
        <source>Reference</source>
        <translation>参考文献</translation>
    </message>
    <message>
        <location filename="../../gui/page_view.py" line="48"/>
        <source>Code</source>
        <translation>代码</translation>
    </message>
</context>
<context>
    <name>Paster</name>
    <message>
        <location filename="../../gui/paste.py" line="120"/>
        <source>The clipboard holds no image and no copied files.</source>
        <translation>剪贴板中没有图像，也没有复制的文件。</translation>
    </message>
    <message>
        <location filename="../../gui/paste.py" line="122"/>
        <source>Saving the pasted image…</source>
        <translation>正在保存粘贴的图像…</translation>
    </message>
    <message>
        <location filename="../../gui/paste.py" line="137"/>
        <source>Pasted {0}</source>
        <translation>已粘贴 {0}</translation>
    </message>
</context>
<context>
    <name>PreferencesDialog</name>
    <message>
        <location filename="../../gui/preferences.py" line="69"/>
        <source>Preferences</source>
        <translation>首选项</translation>
    </message>
    <message>
        <location filename="../../gui/preferences.py" line="77"/>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <location filename="../../gui/preferences.py" line="78"/>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <location filename="../../gui/preferences.py" line="79"/>
        <source>Reading</source>
        <translation>读取</translation>
    </message>
    <message>
        <location filename="../../gui/preferences.py" line="80"/>
        <source>Models</source>
        <translation>模型</translation>
    </message>
    <message>
        <location filename="../../gui/preferences.py" line="81"/>
        <source>Interface</source>
        <translation>界面</translation>
    </message>
    <message>
        <location filename="../../gui/preferences.py" line="83"/>
        <source>Watched Folders</source>
        <translation>监视文件夹</translation>
    </message>
    <message>
        <location filename="../../gui/preferences.py" line="94"/>
        <source>Automatic (measure once, keep the faster)</source>
        <translation>自动（测量一次，保留较快的）</translation>
    </message>
    <message>
        <location filename="../../gui/preferences.py" line="95"/>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <location filename="../../gui/preferences.py" line="95"/>
        <source>GPU</source>
        <translation>GPU</translation>
    </message>
    <message>
        <location filename="../../gui/preferences.py" line="104"/>
        <source>Re-measure</source>
        <translation>重新测量</translation>
    </message>
    <message>
        <location filename="../../gui/preferences.py" line="107"/>
        <source>Set the device to Automatic so that the next document measures the GPU against the CPU again. Nothing is measured now.</source>
        <translation>将设备设为“自动”，让下一个文档重新比较 GPU 与 CPU。现在不会进行任何测量。</translation>
    </message>
    <message>
        <location filename="../../gui/preferences.py" line="112"/>
        <source>Run models on:</source>
        <translation>模型运行于：</translation>
    </message>
    <message>
        <location filename="../../gui/preferences.py" line="114"/>
        <source>Configured:</source>
        <translation>配置：</translation>
    </message>
    <message>
        <location filename="../../gui/preferences.py" line="115"/>
        <source>In use:</source>
        <translation>正在使用：</translation>
    </message>
    <message>
        <location filename="../../gui/preferences.py" line="116"/>
        <source>Why:</source>
        <translation>原因：</translation>
    </message>
    <message>
        <location filename="../../gui/preferences.py" line="117"/>
        <source>Fallback reason:</source>
        <translation>回退原因：</translation>
    </message>
    <message>
        <location filename="../../gui/preferences.py" line="125"/>
        <source>Automatic: the first time a document needs the models, Paperlens times the GPU against the CPU on a few sample lines and keeps the GPU only if it is at least 20% faster. The result is saved, so later sessions start at once. Nothing is measured when the app starts or when this window opens.</source>
        <translation>自动：当文档第一次需要模型时，Paperlens 会用几行示例文本比较 GPU 与 CPU 的用时，只有 GPU 至少快 20% 时才使用 GPU。结果会被保存，之后的会话无需再次测量。启动程序或打开此窗口时不会进行任何测量。</translation>
    </message>
    <message>
        <location filename="../../gui/preferences.py" line="142"/>
        <source>Choose…</source>
        <translation>选择…</translation>
    </message>
    <message>
        <location filename="../../gui/preferences.py" line="144"/>
        <location filename="../../gui/preferences.py" line="238"/>
        <source>Next to each document</source>
        <translation>与各文档放在同一位置</translation>
    </message>
    <message>
        <location filename="../../gui/preferences.py" line="150"/>
        <source>Write the JSON result next to the Markdown</source>
        <translation>在 Markdown 旁边写入 JSON 结果</translation>
    </message>
    <message>
        <location filename="../../gui/preferences.py" line="169"/>
        <source>For the documents added from now on; each keeps the choices it was queued with. The pages to read are chosen beside the queue, and a document can be read again with other choices from its right-click menu.</source>
        <translation>适用于此后添加的文档；每个文档保留加入队列时的选择。要读取的页码在队列旁选择；在文档的右键菜单中可以用其他选择重新读取。</translation>
    </message>
    <message>
        <location filename="../../gui/preferences.py" line="154"/>
        <source>Output folder:</source>
        <translation>输出文件夹：</translation>
    </message>
    <message>
        <location filename="../../gui/preferences.py" line="185"/>
        <source>Change…</source>
        <translation>更改…</translation>
    </message>
    <message>
        <location filename="../../gui/preferences.py" line="187"/>
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <location filename="../../gui/preferences.py" line="199"/>
        <source>Models download by themselves when a document needs them; ★ marks the default ones.</source>
        <translation>文档需要模型时会自动下载；★ 表示默认模型。</translation>
    </message>
    <message>
        <location filename="../../gui/preferences.py" line="207"/>
        <source>System language</source>
        <translation>系统语言</translation>
    </message>
    <message>
        <location filename="../../gui/preferences.py" line="213"/>
        <source>The language changes the next time Paperlens starts.</source>
        <translation>语言将在下次启动 Paperlens 时更改。</translation>
    </message>
    <message>
        <location filename="../../gui/preferences.py" line="215"/>
        <source>Language:</source>
        <translation>语言：</translation>
    </message>
    <message>
        <location filename="../../gui/preferences.py" line="231"/>
        <source>PAPERLENS_MODEL_ONNX_DEVICE is set, so the environment decides; unset it to choose here.</source>
        <translation>已设置 PAPERLENS_MODEL_ONNX_DEVICE，因此由环境变量决定；取消设置后才能在此选择。</translation>
    </message>
    <message>
        <location filename="../../gui/preferences.py" line="252"/>
        <source>Reading…</source>
        <translation>正在读取…</translation>
    </message>
    <message>
        <location filename="../../gui/preferences.py" line="260"/>
        <source>Unknown ({0})</source>
        <translation>未知（{0}）</translation>
    </message>
    <message>
        <location filename="../../gui/preferences.py" line="268"/>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../../gui/preferences.py" line="279"/>
        <source>Settings not saved</source>
        <translation>设置未保存</translation>
    </message>
    <message>
        <location filename="../../gui/preferences.py" line="297"/>
        <source>The next document measures the device again.</source>
        <translation>下一个文档将重新测量设备。</translation>
    </message>
    <message>
        <location filename="../../gui/preferences.py" line="301"/>
        <source>Output folder</source>
        <translation>输出文件夹</translation>
    </message>
    <message>
        <location filename="../../gui/preferences.py" line="307"/>
        <source>Model folder</source>
        <translation>模型文件夹</translation>
    </message>
</context>
<context>
    <name>PreviewPane</name>
    <message>
        <location filename="../../gui/preview.py" line="47"/>
        <source>Layout boxes</source>
        <translation>版面框</translation>
    </message>
    <message>
        <location filename="../../gui/preview.py" line="57"/>
        <source>Fit</source>
        <translation>适应宽度</translation>
    </message>
    <message>
        <location filename="../../gui/preview.py" line="58"/>
        <source>Fit the page to the width (Ctrl+wheel zooms)</source>
        <translation>按宽度适应页面（Ctrl+滚轮缩放）</translation>
    </message>
    <message>
        <location filename="../../gui/preview.py" line="117"/>
        <source>Select a document to see its pages.</source>
        <translation>选择一个文档以查看其页面。</translation>
    </message>
    <message>
        <location filename="../../gui/preview.py" line="119"/>
        <source>Drop PDFs or images on the window to start.</source>
        <translation>将 PDF 或图片拖放到窗口中即可开始。</translation>
    </message>
    <message>
        <location filename="../../gui/preview.py" line="150"/>
        <source>Cancelled; nothing was written.</source>
        <translation>已取消；未写入任何内容。</translation>
    </message>
    <message>
        <location filename="../../gui/preview.py" line="153"/>
        <source>Converted in an earlier session; its files are in {0}</source>
        <translation>已在之前的会话中转换；其文件位于 {0}</translation>
    </message>
    <message>
        <location filename="../../gui/preview.py" line="154"/>
        <source>Waiting for the first page…</source>
        <translation>正在等待第一页…</translation>
    </message>
    <message>
        <location filename="../../gui/preview.py" line="163"/>
        <source>Page {0}</source>
        <translation>第 {0} 页</translation>
    </message>
    <message>
        <location filename="../../gui/preview.py" line="165"/>
        <source>Page {0} …</source>
        <translation>第 {0} 页 …</translation>
    </message>
    <message>
        <location filename="../../gui/preview.py" line="214"/>
        <source>Page {0} · blocks: {1} · text from {2}</source>
        <translation>第 {0} 页 · 块：{1} · 文本来自{2}</translation>
    </message>
    <message>
        <location filename="../../gui/preview.py" line="218"/>
        <source> · read in {0}</source>
        <translation> · 识别文字：{0}</translation>
    </message>
    <message>
        <location filename="../../gui/preview.py" line="221"/>
        <source>Lines in these scripts were read with Tesseract&apos;s recogniser; the others with the main recogniser (Chinese, Japanese, Latin).</source>
        <translation>这些文字的行由 Tesseract 识别器读取；其余的行由主识别器（中文、日文、拉丁文）读取。</translation>
    </message>
    <message>
        <location filename="../../gui/preview.py" line="246"/>
        <source>Page {0} · being read: {1} lines, {2} layout regions so far</source>
        <translation>第 {0} 页 · 正在读取：目前 {1} 行、{2} 个版面区域</translation>
    </message>
    <message>
        <location filename="../../gui/preview.py" line="249"/>
        <source>Page {0} · being read…</source>
        <translation>第 {0} 页 · 正在读取…</translation>
    </message>
    <message>
        <location filename="../../gui/preview.py" line="262"/>
        <source>OCR</source>
        <translation>OCR</translation>
    </message>
    <message>
        <location filename="../../gui/preview.py" line="262"/>
        <source>the text layer</source>
        <translation>文本层</translation>
    </message>
    <message>
        <location filename="../../gui/preview.py" line="261"/>
        <source>the document&apos;s markup</source>
        <translation>文档自身的标记</translation>
    </message>
</context>
<context>
    <name>QueueModel</name>
    <message>
        <location filename="../../gui/queue_model.py" line="141"/>
        <source>Waiting</source>
        <translation>等待中</translation>
    </message>
    <message>
        <location filename="../../gui/queue_model.py" line="144"/>
        <source>Opening…</source>
        <translation>正在打开…</translation>
    </message>
    <message>
        <location filename="../../gui/queue_model.py" line="132"/>
        <source>under 1 min left</source>
        <translation>剩余不到 1 分钟</translation>
    </message>
    <message>
        <location filename="../../gui/queue_model.py" line="134"/>
        <source>~{0} min left</source>
        <translation>约剩 {0} 分钟</translation>
    </message>
    <message>
        <location filename="../../gui/queue_model.py" line="135"/>
        <source>~{0} h {1} min left</source>
        <translation>约剩 {0} 小时 {1} 分钟</translation>
    </message>
    <message>
        <location filename="../../gui/queue_model.py" line="145"/>
        <source>Page {0} of {1}</source>
        <translation>第 {0} 页，共 {1} 页</translation>
    </message>
    <message>
        <location filename="../../gui/queue_model.py" line="150"/>
        <source>Needs a password</source>
        <translation>需要密码</translation>
    </message>
    <message>
        <location filename="../../gui/queue_model.py" line="153"/>
        <source>Done with warnings ({0})</source>
        <translation>已完成，有警告（{0}）</translation>
    </message>
    <message>
        <location filename="../../gui/queue_model.py" line="154"/>
        <source>Done</source>
        <translation>已完成</translation>
    </message>
    <message>
        <location filename="../../gui/queue_model.py" line="157"/>
        <source>Partly done: page(s) {0} not read</source>
        <translation>部分完成：第 {0} 页未能读取</translation>
    </message>
    <message>
        <location filename="../../gui/queue_model.py" line="160"/>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location filename="../../gui/queue_model.py" line="161"/>
        <source>Failed: {0}</source>
        <translation>失败：{0}</translation>
    </message>
    <message>
        <location filename="../../gui/queue_model.py" line="171"/>
        <source>{0} · pages {1}</source>
        <translation>{0} · 第 {1} 页</translation>
    </message>
    <message>
        <location filename="../../gui/queue_model.py" line="177"/>
        <source>pages {0}</source>
        <translation>第 {0} 页</translation>
    </message>
    <message>
        <location filename="../../gui/queue_model.py" line="178"/>
        <source>every page</source>
        <translation>全部页面</translation>
    </message>
    <message>
        <location filename="../../gui/queue_model.py" line="179"/>
        <source>tables as Markdown</source>
        <translation>表格为 Markdown</translation>
    </message>
    <message>
        <location filename="../../gui/queue_model.py" line="180"/>
        <source>tables as HTML</source>
        <translation>表格为 HTML</translation>
    </message>
    <message>
        <location filename="../../gui/queue_model.py" line="181"/>
        <source>headers and footers kept</source>
        <translation>保留页眉页脚</translation>
    </message>
    <message>
        <location filename="../../gui/queue_model.py" line="182"/>
        <source>headers and footers left out</source>
        <translation>省略页眉页脚</translation>
    </message>
    <message>
        <location filename="../../gui/queue_model.py" line="183"/>
        <source>formulas in text as $…$</source>
        <translation>行内公式为 $…$</translation>
    </message>
    <message>
        <location filename="../../gui/queue_model.py" line="184"/>
        <source>formulas in text as printed</source>
        <translation>行内公式按原文</translation>
    </message>
    <message>
        <location filename="../../gui/queue_model.py" line="185"/>
        <source>no layout model</source>
        <translation>不用版面模型</translation>
    </message>
    <message>
        <location filename="../../gui/queue_model.py" line="186"/>
        <source>layout by {0}</source>
        <translation>版面模型 {0}</translation>
    </message>
    <message>
        <location filename="../../gui/queue_model.py" line="187"/>
        <source>photos straightened</source>
        <translation>照片已校正</translation>
    </message>
    <message>
        <location filename="../../gui/queue_model.py" line="188"/>
        <source>photos read as taken</source>
        <translation>照片按原样识别</translation>
    </message>
    <message>
        <location filename="../../gui/queue_model.py" line="189"/>
        <source>languages {0}</source>
        <translation>语言 {0}</translation>
    </message>
    <message>
        <location filename="../../gui/queue_model.py" line="190"/>
        <source>scripts found line by line</source>
        <translation>逐行识别文字种类</translation>
    </message>
    <message>
        <location filename="../../gui/queue_model.py" line="191"/>
        <source>Read with: {0}</source>
        <translation>读取方式：{0}</translation>
    </message>
    <message>
        <location filename="../../gui/queue_model.py" line="196"/>
        <source>Page {0} ({1}): {2}: {3}</source>
        <translation>第 {0} 页（{1}）：{2}：{3}</translation>
    </message>
    <message>
        <location filename="../../gui/queue_model.py" line="321"/>
        <source>Document</source>
        <translation>文档</translation>
    </message>
    <message>
        <location filename="../../gui/queue_model.py" line="322"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../gui/queue_model.py" line="335"/>
        <source>Markdown: {0}</source>
        <translation>Markdown：{0}</translation>
    </message>
</context>
<context>
    <name>ReadAgain</name>
    <message>
        <location filename="../../gui/reading_options.py" line="292"/>
        <source>Not read again: {0} is already in the queue to be read.</source>
        <translation>未重新读取：{0} 已在队列中等待读取。</translation>
    </message>
</context>
<context>
    <name>ReadAgainDialog</name>
    <message>
        <location filename="../../gui/reading_options.py" line="217"/>
        <source>Read Again With…</source>
        <translation>重新读取…</translation>
    </message>
    <message>
        <location filename="../../gui/reading_options.py" line="218"/>
        <source>Read {0} again with:</source>
        <translation>重新读取 {0}：</translation>
    </message>
    <message>
        <location filename="../../gui/reading_options.py" line="219"/>
        <source>Read {0} documents again with:</source>
        <translation>重新读取 {0} 个文档：</translation>
    </message>
    <message>
        <location filename="../../gui/reading_options.py" line="226"/>
        <source>Pages:</source>
        <translation>页码：</translation>
    </message>
    <message>
        <location filename="../../gui/reading_options.py" line="228"/>
        <source>Read</source>
        <translation>读取</translation>
    </message>
</context>
<context>
    <name>ReadingSwitches</name>
    <message>
        <location filename="../../gui/reading_options.py" line="135"/>
        <source>Keep running headers, footers and page numbers</source>
        <translation>保留页眉、页脚和页码</translation>
    </message>
    <message>
        <location filename="../../gui/reading_options.py" line="138"/>
        <source>Off: the lines repeated at the top and bottom of the pages are left out of the Markdown (they stay in the JSON, marked as header and footer).</source>
        <translation>关闭时：各页顶部和底部重复的行不写入 Markdown（它们仍在 JSON 中，标记为页眉和页脚）。</translation>
    </message>
    <message>
        <location filename="../../gui/reading_options.py" line="140"/>
        <source>Write formulas inside running text as $…$</source>
        <translation>正文中的公式写成 $…$</translation>
    </message>
    <message>
        <location filename="../../gui/reading_options.py" line="143"/>
        <source>Born-digital pages with a math font: formulas within sentences as LaTeX between dollar signs. Off: the text as the page spells it.</source>
        <translation>使用数学字体的原生数字页面：句中的公式写成美元符号之间的 LaTeX。关闭时：按页面原文书写。</translation>
    </message>
    <message>
        <location filename="../../gui/reading_options.py" line="145"/>
        <source>Straighten photographed pages</source>
        <translation>校正拍摄的页面</translation>
    </message>
    <message>
        <location filename="../../gui/reading_options.py" line="148"/>
        <source>A photo of a page is cut to the page, its perspective undone and a curled page flattened before it is read. Off: the picture is read as it is.</source>
        <translation>识别前将页面照片裁到页面范围，消除透视，并展平弯曲的页面。关闭：按原图识别。</translation>
    </message>
    <message>
        <location filename="../../gui/reading_options.py" line="150"/>
        <source>HTML</source>
        <translation>HTML</translation>
    </message>
    <message>
        <location filename="../../gui/reading_options.py" line="151"/>
        <source>Markdown (simple tables only)</source>
        <translation>Markdown（仅限简单表格）</translation>
    </message>
    <message>
        <location filename="../../gui/reading_options.py" line="154"/>
        <source>Markdown writes pipe tables where no cell spans rows or columns; other tables stay HTML.</source>
        <translation>Markdown 在没有跨行或跨列单元格时写成管道表格；其他表格仍为 HTML。</translation>
    </message>
    <message>
        <location filename="../../gui/reading_options.py" line="156"/>
        <source>DocLayNet (papers, reports, forms)</source>
        <translation>DocLayNet（论文、报告、表单）</translation>
    </message>
    <message>
        <location filename="../../gui/reading_options.py" line="157"/>
        <source>CDLA (Chinese documents)</source>
        <translation>CDLA（中文文档）</translation>
    </message>
    <message>
        <location filename="../../gui/reading_options.py" line="158"/>
        <source>None (paragraphs by geometry only)</source>
        <translation>无（仅按几何划分段落）</translation>
    </message>
    <message>
        <location filename="../../gui/reading_options.py" line="163"/>
        <source>Tables as:</source>
        <translation>表格格式：</translation>
    </message>
    <message>
        <location filename="../../gui/reading_options.py" line="164"/>
        <source>Layout model:</source>
        <translation>版面模型：</translation>
    </message>
    <message>
        <location filename="../../gui/reading_options.py" line="165"/>
        <source>Recognition languages:</source>
        <translation>识别语言：</translation>
    </message>
</context>
<context>
    <name>UnreadScriptsBar</name>
    <message>
        <location filename="../../gui/unread_scripts.py" line="24"/>
        <source>{0:.1f} MB</source>
        <translation>{0:.1f} MB</translation>
    </message>
    <message>
        <location filename="../../gui/unread_scripts.py" line="62"/>
        <source>Download and Read Again</source>
        <translation>下载并重新读取</translation>
    </message>
    <message>
        <location filename="../../gui/unread_scripts.py" line="98"/>
        <source>Some lines were not read: the recogniser for their script is not installed ({0}). Paperlens can download it ({1}) and read the document again.</source>
        <translation>有些行未能读取：其文字种类的识别器尚未安装（{0}）。Paperlens 可以下载它（{1}）并重新读取文档。</translation>
    </message>
    <message>
        <location filename="../../gui/unread_scripts.py" line="100"/>
        <source>size unknown</source>
        <translation>大小未知</translation>
    </message>
    <message>
        <location filename="../../gui/unread_scripts.py" line="121"/>
        <source>Downloading {0}…</source>
        <translation>正在下载 {0}…</translation>
    </message>
    <message>
        <location filename="../../gui/unread_scripts.py" line="151"/>
        <source>The download failed: {0}</source>
        <translation>下载失败：{0}</translation>
    </message>
    <message>
        <location filename="../../gui/unread_scripts.py" line="154"/>
        <source>Downloaded; reading the document again.</source>
        <translation>已下载；正在重新读取文档。</translation>
    </message>
</context>
<context>
    <name>UnreadScriptsOffer</name>
    <message>
        <location filename="../../gui/unread_scripts.py" line="186"/>
        <source>Not read again: {0} is already in the queue to be read.</source>
        <translation>未重新读取：{0} 已在队列中等待读取。</translation>
    </message>
</context>
<context>
    <name>WatchedFoldersTab</name>
    <message>
        <location filename="../../gui/watched_folders.py" line="26"/>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <location filename="../../gui/watched_folders.py" line="26"/>
        <source>Output folder</source>
        <translation>输出文件夹</translation>
    </message>
    <message>
        <location filename="../../gui/watched_folders.py" line="33"/>
        <source>Add…</source>
        <translation>添加…</translation>
    </message>
    <message>
        <location filename="../../gui/watched_folders.py" line="36"/>
        <source>Change Output…</source>
        <translation>更改输出…</translation>
    </message>
    <message>
        <location filename="../../gui/watched_folders.py" line="38"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../../gui/watched_folders.py" line="47"/>
        <source>A document that appears in a watched folder is converted into its output folder with the current options once it is complete (its size stops changing), and only once: the same content is never converted twice, even under another name. Documents already in the folder are converted too; subfolders are not watched. A document that cannot be converted is reported in the log (View &gt; Log).</source>
        <translation>出现在监视文件夹中的文档在写入完成后（大小不再变化）按当前选项转换到该文件夹的输出文件夹，且只转换一次：相同内容即使换了文件名也不会再次转换。添加文件夹时已在其中的文档也会转换；子文件夹不受监视。无法转换的文档会记录在日志中（查看 &gt; 日志）。</translation>
    </message>
    <message>
        <location filename="../../gui/watched_folders.py" line="100"/>
        <source>Folder to watch</source>
        <translation>要监视的文件夹</translation>
    </message>
    <message>
        <location filename="../../gui/watched_folders.py" line="110"/>
        <source>Output folder for {0}</source>
        <translation>{0} 的输出文件夹</translation>
    </message>
</context>
<context>
    <name>WindowActions</name>
    <message>
        <location filename="../../gui/actions.py" line="38"/>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../../gui/actions.py" line="39"/>
        <source>Add PDFs and images</source>
        <translation>添加 PDF 和图片</translation>
    </message>
    <message>
        <location filename="../../gui/actions.py" line="41"/>
        <source>Open &amp;Folder…</source>
        <translation>打开文件夹(&amp;F)…</translation>
    </message>
    <message>
        <location filename="../../gui/actions.py" line="42"/>
        <source>Add every document in a folder</source>
        <translation>添加文件夹中的所有文档</translation>
    </message>
    <message>
        <location filename="../../gui/actions.py" line="44"/>
        <source>&amp;Export…</source>
        <translation>导出(&amp;E)…</translation>
    </message>
    <message>
        <location filename="../../gui/actions.py" line="45"/>
        <source>Save the Markdown, JSON and images to a folder</source>
        <translation>将 Markdown、JSON 和图片保存到文件夹</translation>
    </message>
    <message>
        <location filename="../../gui/actions.py" line="47"/>
        <source>Open Output Fo&amp;lder</source>
        <translation>打开输出文件夹(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../gui/actions.py" line="49"/>
        <source>Show the selected document&apos;s results</source>
        <translation>显示所选文档的结果</translation>
    </message>
    <message>
        <location filename="../../gui/actions.py" line="51"/>
        <source>&amp;Reveal in File Manager</source>
        <translation>在文件管理器中显示(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../gui/actions.py" line="52"/>
        <source>Show the selected document&apos;s Markdown file in the file manager</source>
        <translation>在文件管理器中显示所选文档的 Markdown 文件</translation>
    </message>
    <message>
        <location filename="../../gui/actions.py" line="54"/>
        <source>&amp;Copy Markdown</source>
        <translation>复制 Markdown(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../gui/actions.py" line="55"/>
        <source>Copy the Markdown to the clipboard</source>
        <translation>将 Markdown 复制到剪贴板</translation>
    </message>
    <message>
        <location filename="../../gui/actions.py" line="57"/>
        <source>&amp;Paste</source>
        <translation>粘贴(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../gui/actions.py" line="59"/>
        <source>Convert the image or the files on the clipboard</source>
        <translation>转换剪贴板中的图像或文件</translation>
    </message>
    <message>
        <location filename="../../gui/actions.py" line="61"/>
        <source>Copy &amp;LaTeX</source>
        <translation>复制 LaTeX(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../gui/actions.py" line="63"/>
        <source>Copy the formula&apos;s LaTeX: a document of one formula, or the formula clicked on the page</source>
        <translation>复制公式的 LaTeX：只含一个公式的文档，或在页面上点选的公式</translation>
    </message>
    <message>
        <location filename="../../gui/actions.py" line="65"/>
        <source>Copy &amp;Table</source>
        <translation>复制表格(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../gui/actions.py" line="67"/>
        <source>Copy the table as HTML or Markdown (Preferences &gt; Reading): a document of one table, or the table clicked on the page</source>
        <translation>以 HTML 或 Markdown 复制表格（首选项 &gt; 读取）：只含一个表格的文档，或在页面上点选的表格</translation>
    </message>
    <message>
        <location filename="../../gui/actions.py" line="70"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../gui/actions.py" line="71"/>
        <source>Stop converting the selected documents</source>
        <translation>停止转换所选文档</translation>
    </message>
    <message>
        <location filename="../../gui/actions.py" line="73"/>
        <source>Cancel All</source>
        <translation>全部取消</translation>
    </message>
    <message>
        <location filename="../../gui/actions.py" line="74"/>
        <source>Stop every waiting and running document</source>
        <translation>停止所有等待中和正在运行的文档</translation>
    </message>
    <message>
        <location filename="../../gui/actions.py" line="75"/>
        <source>Retry</source>
        <translation>重试</translation>
    </message>
    <message>
        <location filename="../../gui/actions.py" line="76"/>
        <source>Convert the failed or cancelled documents again</source>
        <translation>重新转换失败或已取消的文档</translation>
    </message>
    <message>
        <location filename="../../gui/actions.py" line="78"/>
        <source>Read &amp;Again With…</source>
        <translation>重新读取(&amp;A)…</translation>
    </message>
    <message>
        <location filename="../../gui/actions.py" line="80"/>
        <source>Read the selected documents again with other pages, tables, headers and footers, formulas or layout model</source>
        <translation>用其他页码、表格、页眉页脚、公式或版面模型重新读取所选文档</translation>
    </message>
    <message>
        <location filename="../../gui/actions.py" line="82"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../../gui/actions.py" line="84"/>
        <source>Take the selected documents off the list</source>
        <translation>从列表中移除所选文档</translation>
    </message>
    <message>
        <location filename="../../gui/actions.py" line="85"/>
        <source>&amp;Preferences…</source>
        <translation>首选项(&amp;P)…</translation>
    </message>
    <message>
        <location filename="../../gui/actions.py" line="90"/>
        <source>&amp;Log</source>
        <translation>日志(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../gui/actions.py" line="91"/>
        <source>What Paperlens did in this session</source>
        <translation>Paperlens 在本次会话中的操作记录</translation>
    </message>
    <message>
        <location filename="../../gui/actions.py" line="92"/>
        <source>&amp;About Paperlens</source>
        <translation>关于 Paperlens(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../gui/actions.py" line="93"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../../gui/actions.py" line="97"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../gui/actions.py" line="99"/>
        <source>Recent Outputs</source>
        <translation>最近的输出</translation>
    </message>
    <message>
        <location filename="../../gui/actions.py" line="104"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location filename="../../gui/actions.py" line="108"/>
        <source>&amp;Queue</source>
        <translation>队列(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../../gui/actions.py" line="111"/>
        <source>&amp;View</source>
        <translation>查看(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../gui/actions.py" line="113"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../gui/actions.py" line="116"/>
        <source>Main</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <location filename="../../gui/actions.py" line="165"/>
        <source>Clear</source>
        <translation>清除</translation>
    </message>
</context>
</TS>
