# Build the Windows bundle: dist\ekko-memory\ekko-memory-gui.exe (one folder, no console).
# UNTESTED: written and reviewed on Linux; see packaging/README.md ("Windows and macOS").
#
#   powershell -ExecutionPolicy Bypass -File packaging\windows\build.ps1
#
# Needs Python 3.11+ (python.org installer or `py` launcher) and a CJK font for Chinese
# (Windows ships Microsoft YaHei). Run from anywhere; it works in the repository root.
$ErrorActionPreference = "Stop"
$Root = Resolve-Path (Join-Path $PSScriptRoot "..\..")
Set-Location $Root

if (-not (Test-Path ".venv\Scripts\python.exe")) {
    py -3 -m venv .venv
}
.venv\Scripts\python.exe -m pip install --quiet --upgrade pip
.venv\Scripts\python.exe -m pip install --quiet -e ".[gui,package]"
.venv\Scripts\pyinstaller.exe --noconfirm --distpath dist --workpath build\pyinstaller `
    packaging\ekko-memory.spec

# The same smoke test as on Linux, offscreen: opens a demo workspace and exits 0.
$Demo = Join-Path $env:TEMP ("ekko-demo-" + [guid]::NewGuid())
$env:QT_QPA_PLATFORM = "offscreen"
$env:EKKO_HOME = Join-Path $Demo "home"
$p = Start-Process -FilePath "dist\ekko-memory\ekko-memory-gui.exe" `
    -ArgumentList @("--demo", "`"$Demo`"", "--smoke-test") -Wait -PassThru -NoNewWindow
if ($p.ExitCode -ne 0) { throw "smoke test failed with exit code $($p.ExitCode)" }
Compress-Archive -Path "dist\ekko-memory" -DestinationPath "dist\ekko-memory-windows.zip" -Force
Write-Host "built dist\ekko-memory and dist\ekko-memory-windows.zip"
