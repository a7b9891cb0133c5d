// The settings' field descriptions live in lib/ so the admin form (client code) can use them too.
export { describeSettingFields, type SettingField } from "@/lib/settings-fields";
