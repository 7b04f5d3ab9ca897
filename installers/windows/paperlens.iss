; Inno Setup 6 script: a per-user Paperlens installer for Windows x64 (no administrator rights).
; Unverified: written on Linux, never compiled or run on Windows. See README.md beside this file.
; Build: ISCC.exe /DAppVersion=0.1.0 installers\windows\paperlens.iss  (after the PyInstaller step)

#ifndef AppVersion
  #error Pass the version: ISCC.exe /DAppVersion=X.Y.Z paperlens.iss
#endif
#define Root "..\.."
#define Frozen Root + "\build\windows\dist\paperlens"

[Setup]
AppId={{6C0E8B7A-2F4D-4B8E-9A51-3D7C1E5B9F20}
AppName=Paperlens
AppVersion={#AppVersion}
AppPublisher=Paperlens
AppComments=Desktop document OCR: PDFs and images to Markdown, locally
; Per-user: installs into %LOCALAPPDATA%\Programs\Paperlens, registry under HKCU.
PrivilegesRequired=lowest
DefaultDirName={autopf}\Paperlens
DefaultGroupName=Paperlens
DisableProgramGroupPage=yes
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
ChangesAssociations=yes
SetupIconFile={#Root}\build\windows\paperlens.ico
UninstallDisplayIcon={app}\paperlens.exe
UninstallDisplayName=Paperlens
OutputDir={#Root}\dist
OutputBaseFilename=paperlens-{#AppVersion}-windows-x64-setup
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[Files]
; The PyInstaller folder, the default models (models\) included.
Source: "{#Frozen}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{autoprograms}\Paperlens"; Filename: "{app}\paperlens.exe"
Name: "{autodesktop}\Paperlens"; Filename: "{app}\paperlens.exe"; Tasks: desktopicon

[Registry]
; One ProgID, offered under "Open with" for every supported type; the user's default viewer for
; PDFs and images stays theirs. HKA is HKCU in a per-user install; all of it goes on uninstall.
Root: HKA; Subkey: "Software\Classes\Paperlens.Document"; ValueType: string; ValueName: ""; ValueData: "Document for Paperlens"; Flags: uninsdeletekey
Root: HKA; Subkey: "Software\Classes\Paperlens.Document\DefaultIcon"; ValueType: string; ValueName: ""; ValueData: "{app}\paperlens.exe,0"
Root: HKA; Subkey: "Software\Classes\Paperlens.Document\shell\open\command"; ValueType: string; ValueName: ""; ValueData: """{app}\paperlens.exe"" ""%1"""
Root: HKA; Subkey: "Software\Classes\Applications\paperlens.exe"; ValueType: string; ValueName: "FriendlyAppName"; ValueData: "Paperlens"; Flags: uninsdeletekey
Root: HKA; Subkey: "Software\Classes\Applications\paperlens.exe\shell\open\command"; ValueType: string; ValueName: ""; ValueData: """{app}\paperlens.exe"" ""%1"""
Root: HKA; Subkey: "Software\Classes\.pdf\OpenWithProgids"; ValueType: string; ValueName: "Paperlens.Document"; ValueData: ""; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\.xps\OpenWithProgids"; ValueType: string; ValueName: "Paperlens.Document"; ValueData: ""; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\.oxps\OpenWithProgids"; ValueType: string; ValueName: "Paperlens.Document"; ValueData: ""; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\.epub\OpenWithProgids"; ValueType: string; ValueName: "Paperlens.Document"; ValueData: ""; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\.cbz\OpenWithProgids"; ValueType: string; ValueName: "Paperlens.Document"; ValueData: ""; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\.png\OpenWithProgids"; ValueType: string; ValueName: "Paperlens.Document"; ValueData: ""; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\.jpg\OpenWithProgids"; ValueType: string; ValueName: "Paperlens.Document"; ValueData: ""; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\.jpeg\OpenWithProgids"; ValueType: string; ValueName: "Paperlens.Document"; ValueData: ""; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\.tif\OpenWithProgids"; ValueType: string; ValueName: "Paperlens.Document"; ValueData: ""; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\.tiff\OpenWithProgids"; ValueType: string; ValueName: "Paperlens.Document"; ValueData: ""; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\.bmp\OpenWithProgids"; ValueType: string; ValueName: "Paperlens.Document"; ValueData: ""; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\.webp\OpenWithProgids"; ValueType: string; ValueName: "Paperlens.Document"; ValueData: ""; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\Applications\paperlens.exe\SupportedTypes"; ValueType: string; ValueName: ".pdf"; ValueData: ""
Root: HKA; Subkey: "Software\Classes\Applications\paperlens.exe\SupportedTypes"; ValueType: string; ValueName: ".xps"; ValueData: ""
Root: HKA; Subkey: "Software\Classes\Applications\paperlens.exe\SupportedTypes"; ValueType: string; ValueName: ".oxps"; ValueData: ""
Root: HKA; Subkey: "Software\Classes\Applications\paperlens.exe\SupportedTypes"; ValueType: string; ValueName: ".epub"; ValueData: ""
Root: HKA; Subkey: "Software\Classes\Applications\paperlens.exe\SupportedTypes"; ValueType: string; ValueName: ".cbz"; ValueData: ""
Root: HKA; Subkey: "Software\Classes\Applications\paperlens.exe\SupportedTypes"; ValueType: string; ValueName: ".png"; ValueData: ""
Root: HKA; Subkey: "Software\Classes\Applications\paperlens.exe\SupportedTypes"; ValueType: string; ValueName: ".jpg"; ValueData: ""
Root: HKA; Subkey: "Software\Classes\Applications\paperlens.exe\SupportedTypes"; ValueType: string; ValueName: ".jpeg"; ValueData: ""
Root: HKA; Subkey: "Software\Classes\Applications\paperlens.exe\SupportedTypes"; ValueType: string; ValueName: ".tif"; ValueData: ""
Root: HKA; Subkey: "Software\Classes\Applications\paperlens.exe\SupportedTypes"; ValueType: string; ValueName: ".tiff"; ValueData: ""
Root: HKA; Subkey: "Software\Classes\Applications\paperlens.exe\SupportedTypes"; ValueType: string; ValueName: ".bmp"; ValueData: ""
Root: HKA; Subkey: "Software\Classes\Applications\paperlens.exe\SupportedTypes"; ValueType: string; ValueName: ".webp"; ValueData: ""

[Run]
Filename: "{app}\paperlens.exe"; Description: "{cm:LaunchProgram,Paperlens}"; Flags: nowait postinstall skipifsilent
