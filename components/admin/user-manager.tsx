"use client";
// Accounts and roles. A role changes only once confirmed in a dialog naming the person and the new role. The last
// admin cannot be demoted (the API answers 409 and the message is shown).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { apiFetch } from "@/components/ui/api-client";
import { ConfirmDialog } from "@/components/ui/dialog";
import { ErrorMessage } from "@/components/ui/error-message";
import { adminKeys, type UserList, type UserRow } from "./admin-api";
import { AdminTable, adminRowClass } from "./admin-table";

export function UserManager({ currentUserId }: { currentUserId: string }) {
  const queryClient = useQueryClient();
  const users = useQuery({
    queryKey: adminKeys.users,
    queryFn: () => apiFetch<UserList>("/api/admin/users"),
  });
  const setRole = useMutation({
    mutationFn: ({ id, role }: { id: string; role: "admin" | "user" }) =>
      apiFetch(`/api/admin/users/${id}`, { method: "PUT", body: { role } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.users }),
    onSettled: () => setPending(null),
  });
  const [pending, setPending] = useState<{ user: UserRow; role: "admin" | "user" } | null>(null);
  return (
    <div className="space-y-6" data-testid="user-manager">
      <h1 className="text-xl font-semibold">Users</h1>
      <ErrorMessage message={setRole.error?.message} testId="user-error" />
      <AdminTable columns={["Name", "Email", "Role"]} actions>
        {users.data?.users.map((user) => (
          <tr key={user.id} className={adminRowClass()} data-testid="user-row" data-user-email={user.email}>
            <td className="py-1.5">
              {user.name}
              {user.id === currentUserId && (
                <span className="ml-1 text-xs text-zinc-500 dark:text-zinc-400">(you)</span>
              )}
            </td>
            <td>{user.email}</td>
            <td data-testid="user-role">{user.role}</td>
            <td>
              <button
                type="button"
                className="button-ghost"
                disabled={setRole.isPending}
                onClick={() => setPending({ user, role: user.role === "admin" ? "user" : "admin" })}
                data-testid="user-toggle-role"
              >
                {user.role === "admin" ? "Make user" : "Make admin"}
              </button>
            </td>
          </tr>
        ))}
      </AdminTable>
      <ConfirmDialog
        open={pending !== null}
        title="Change role?"
        message={
          pending && (
            <span data-testid="role-confirm-message">
              Make {pending.user.name} ({pending.user.email}){" "}
              {pending.role === "admin" ? "an admin" : "a user"}?
            </span>
          )
        }
        confirmLabel={pending?.role === "admin" ? "Make admin" : "Make user"}
        onConfirm={() => pending && setRole.mutate({ id: pending.user.id, role: pending.role })}
        onCancel={() => setPending(null)}
        pending={setRole.isPending}
        testId="role-confirm"
      />
    </div>
  );
}
